import { Copy } from "lucide-react";
import { toast } from "sonner";
import { IconButton } from "~/components/ui/icon-button";

/** Copies the image's full address to the clipboard; a toast says it was copied (or shows it to copy by hand). */
export function CopyUrlButton({ url, name }: { url: string; name: string }) {
  async function copy() {
    // Local images have a path: a full address is what works pasted elsewhere.
    const address = new URL(url, window.location.href).href;
    try {
      await navigator.clipboard.writeText(address);
      toast.success("Image URL copied to the clipboard", { description: address });
    } catch {
      toast.error("Could not copy the URL", { description: address });
    }
  }
  return <IconButton icon={Copy} label={`Copy URL of ${name}`} onClick={() => void copy()} />;
}
