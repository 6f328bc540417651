import { RouteErrorMessage } from "~/components/errors/error-message";
import { AuthProvider, type AuthViewer } from "~/lib/use-auth";
import { AccessDenied } from "./access-denied";
import { accessDeniedReason, deniedViewer } from "./access-denied-reason";
import { AdminShell } from "./admin-shell";

/**
 * An admin page that failed: Access Denied for the guard's 403s, the error message
 * otherwise. Inside the admin shell when the viewer is known, so an editor can
 * navigate on; a user without any role gets the message alone (no admin screen to go
 * to). Shown by the admin layout's error boundary.
 */
export default function AdminErrorPage({ error, viewer }: { error: unknown; viewer?: AuthViewer }) {
  const reason = accessDeniedReason(error);
  const shown = viewer ?? deniedViewer(error);
  const content = reason ? <AccessDenied reason={reason} /> : <RouteErrorMessage error={error} />;
  if (!shown) {
    return (
      <main id="main" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        {content}
      </main>
    );
  }
  return (
    <AuthProvider viewer={shown}>
      <AdminShell>{content}</AdminShell>
    </AuthProvider>
  );
}
