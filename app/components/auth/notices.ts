import type { FeedbackMessage } from "./feedback";

/**
 * Messages carried across a redirect by a `notice` query parameter (e.g. after signing
 * out, the sign-in page shows "Signed out"; a second step that waited too long sends
 * the visitor back to the first, saying why). Only these keys are understood, so a link
 * cannot make the page say anything else.
 */
export const NOTICES = {
  "signed-out": { tone: "success", title: "Signed out", description: "You have been signed out successfully." },
  "account-created": {
    tone: "success",
    title: "Success!",
    description: "Account created successfully. You can now sign in.",
  },
  "password-reset": {
    tone: "success",
    title: "Password updated",
    description: "Your password has been changed and your other sessions were signed out. You can now sign in.",
  },
  "sign-in-expired": {
    tone: "error",
    title: "Error signing in",
    description: "This sign-in attempt has expired or was tried too many times. Please sign in again.",
  },
} as const satisfies Record<string, FeedbackMessage>;

export type NoticeKey = keyof typeof NOTICES;

export function noticeFrom(url: URL): FeedbackMessage | null {
  const key = url.searchParams.get("notice");
  return key && Object.hasOwn(NOTICES, key) ? NOTICES[key as NoticeKey] : null;
}

/** `/auth?notice=…` (keeping a safe redirectTo). */
export function signInPath(options: { notice?: NoticeKey; redirectTo?: string } = {}): string {
  const query = new URLSearchParams();
  if (options.redirectTo) query.set("redirectTo", options.redirectTo);
  if (options.notice) query.set("notice", options.notice);
  const search = query.toString();
  return search ? `/auth?${search}` : "/auth";
}
