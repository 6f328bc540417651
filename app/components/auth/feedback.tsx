import { useEffect } from "react";
import { toast } from "sonner";
import { Alert } from "~/components/ui/alert";

/**
 * The outcome of an auth form or a redirect notice: a toast when
 * JavaScript runs, and the same text inline, which is all a page without JavaScript
 * shows. The inline copy is an alert for errors and a polite status for successes.
 */
export interface FeedbackMessage {
  tone: "success" | "error";
  title: string;
  description?: string;
}

/**
 * Shows the message as a toast each time `key` changes: by default the message object,
 * so every new action result toasts again; a notice from the URL passes its text, so
 * a revalidation of the page does not repeat it.
 */
function useToast(message: FeedbackMessage | null | undefined, key: unknown = message): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key decides when to show again.
  useEffect(() => {
    if (message) showToast(message);
  }, [key]);
}

export function showToast(message: FeedbackMessage): void {
  const show = message.tone === "error" ? toast.error : toast.success;
  show(message.title, { description: message.description });
}

export interface FeedbackProps {
  message: FeedbackMessage | null | undefined;
  /** See useToast. */
  toastKey?: unknown;
  className?: string;
}

export function Feedback({ message, toastKey = message, className }: FeedbackProps) {
  useToast(message, toastKey);
  if (!message) return null;
  return (
    <Alert tone={message.tone} className={className} testId={message.tone === "error" ? "form-error" : "form-notice"}>
      <p className="font-semibold">{message.title}</p>
      {/* The space keeps the two apart in the element's text (copied, or read as one string). */}{" "}
      {message.description && <p className="mt-0.5">{message.description}</p>}
    </Alert>
  );
}
