import type { FormActionData } from "~/lib/forms";
import type { ApiToken, TotpEnrolment } from "../../../server/auth/account-changes.ts";

/** What an answer of the account page carries besides its toast: shown once, never stored. */
export interface AccountDetails {
  /** totp-enable: what to scan. */
  enrolment?: TotpEnrolment;
  /** totp-verify and backup-codes. */
  backupCodes?: string[];
  /** api-token. */
  apiToken?: ApiToken;
}

/** What the account page's answer shows once besides its toast (AccountDetails), if it is that answer. */
export function detailsOf(answer: FormActionData | undefined): AccountDetails {
  return (answer ?? {}) as AccountDetails;
}

/**
 * "21 Nov 2026, 14:03 UTC": the same text on the server and in the browser (a locale
 * or time-zone dependent format would differ between the two and break hydration).
 */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "unknown";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "unknown";
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** A <time> element with the ISO value for machines and the fixed format for people. */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  return iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : <span>unknown</span>;
}
