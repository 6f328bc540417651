/**
 * What the product tells the person whose action queued an email. With SMTP configured
 * the mail worker delivers it within a second, so it is reported as sent. Without (the
 * embedded default) it stays in the outbox, its links written to the server's log
 * (worker.ts), and "sent" would be false.
 */

export const KEPT_IN_OUTBOX = "kept in the outbox: no SMTP is configured";

/** The `sent` report when SMTP delivers email, the `kept` one when email stays in the outbox. */
export function emailReport<Report>(mail: { smtpUrl?: string }, reports: { sent: Report; kept: Report }): Report {
  return mail.smtpUrl ? reports.sent : reports.kept;
}
