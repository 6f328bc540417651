import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { Invalid } from "../errors.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import { emailReport, KEPT_IN_OUTBOX } from "../mail/reports.ts";
import { UnsafeLinkError } from "../mail/templates.ts";
import { SITE_NAME } from "../site.ts";
import { parseInput } from "../validation.ts";
import { renderNotificationEmail } from "./notification-email.ts";
import { isSuppressed, normalizeEmail } from "./suppression.ts";
import { testEmailSchema } from "./test-email-input.ts";

/**
 * The admin's test email (the spec's "Test email payload", sent from the Newsletter
 * Settings tab and the JSON API): the notification template with sample content and a
 * "[TEST]" subject prefix, queued in the outbox with a unique idempotency key. The
 * caller wakes the mail worker after it returns.
 */

const TEST_EMAIL_SUCCESS_MESSAGE = "Test email sent successfully!";
export const TEST_EMAIL_SUBJECT_PREFIX = "[TEST]";
export const DEFAULT_TEST_POST_TYPE = "Blog Post";
export const DEFAULT_TEST_POST_TITLE = "Sample post";

/** What the sender of a test email is told: the spec's success text only when SMTP delivers it. */
export function testEmailMessage(mail: { smtpUrl?: string }): string {
  return emailReport(mail, { sent: TEST_EMAIL_SUCCESS_MESSAGE, kept: `Test email ${KEPT_IN_OUTBOX}.` });
}

export interface TestEmailDeps {
  config: { publicOrigin: string };
  siteName?: string;
}

/**
 * Validates the payload and queues the email. Refuses (Invalid, naming the field) a
 * bad payload, a link that may not go in an email, or a suppressed recipient.
 */
export async function sendTestEmail(
  db: Kysely<Database>,
  deps: TestEmailDeps,
  input: unknown,
): Promise<{ id: string; to: string; subject: string }> {
  const payload = parseInput(testEmailSchema, input ?? {});
  const to = normalizeEmail(payload.email);
  if (await isSuppressed(db, to)) throw new Invalid({ email: "This address is on the suppression list" });

  const origin = deps.config.publicOrigin;
  let email: ReturnType<typeof renderNotificationEmail>;
  try {
    email = renderNotificationEmail({
      siteName: deps.siteName ?? SITE_NAME,
      publicOrigin: origin,
      postType: payload.post_type ?? DEFAULT_TEST_POST_TYPE,
      title: payload.post_title ?? DEFAULT_TEST_POST_TITLE,
      summary: payload.post_summary ?? "",
      url: payload.post_url ?? "/",
      imageUrl: payload.post_image,
      // No subscriber behind a test email: the unsubscribe page without a token.
      unsubscribeUrl: `${origin}/newsletter/unsubscribe`,
      subjectPrefix: TEST_EMAIL_SUBJECT_PREFIX,
    });
  } catch (error) {
    // The post's link is the one the template refuses (a bad image is left out instead).
    if (error instanceof UnsafeLinkError) throw new Invalid({ post_url: error.message });
    throw error;
  }
  const { id } = await enqueueEmail(db, {
    idempotencyKey: `test:${randomUUID()}`,
    kind: "newsletter-test",
    to,
    ...email,
  });
  return { id, to, subject: email.subject };
}
