import { Toaster as SonnerToaster } from "sonner";
import { usePageTheme } from "~/components/theme/page-theme";
import "./toast-contrast.css";

/**
 * Where toasts appear (mounted once, in the root layout). Every toast of ours also has
 * an inline counterpart rendered by the server, so nothing depends on JavaScript.
 */
export function Toaster() {
  return <SonnerToaster theme={usePageTheme()} position="bottom-right" richColors closeButton duration={6000} />;
}
