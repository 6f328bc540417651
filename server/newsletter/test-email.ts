import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../db/schema.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import { UnsafeLinkError } from "../mail/templates.ts";
import { SITE_NAME } from "../site.ts";
import { renderNotificationEmail } from "./notification-email.ts";
import { isSuppressed, normalizeEmail } from "./suppression.ts";

/**
 * The admin's test email (spec section 3, "Test email payload"; issue 5, Newsletter
 * Settings): the notification template with sample content and a "[TEST]" subject
 * prefix, queued in the outbox with a unique idempotency key. The caller wakes the
 * mail worker after it returns.
 */

export const TEST_EMAIL_REQUIRED_MESSAGE = "Please enter a test email address";
export const TEST_EMAIL_INVALID_MESSAGE = "Please enter a valid email address";
export const TEST_EMAIL_SUCCESS_MESSAGE = "Test email sent successfully!";
export const TEST_EMAIL_SUBJECT_PREFIX = "[TEST]";
export const DEFAULT_TEST_POST_TYPE = "Blog Post";
export const DEFAULT_TEST_POST_TITLE = "Sample post";

/** Optional text: absent, null or blank all mean "use the default". */
const optionalText = (max: number, label: string) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((value) => value || undefined);

export const testEmailSchema = z.object({
  email: z
    .string({ message: TEST_EMAIL_REQUIRED_MESSAGE })
    .trim()
    .min(1, TEST_EMAIL_REQUIRED_MESSAGE)
    .max(254, TEST_EMAIL_INVALID_MESSAGE)
    .pipe(z.email({ message: TEST_EMAIL_INVALID_MESSAGE })),
  post_title: optionalText(300, "The post title"),
  post_summary: optionalText(5000, "The post summary"),
  post_image: optionalText(2000, "The image URL"),
  post_url: optionalText(2000, "The post URL"),
  post_type: optionalText(100, "The post type"),
});

export type TestEmailInput = z.input<typeof testEmailSchema>;

/** A refusal whose message can be shown as is ("Failed to send test email: {message}"). */
export class TestEmailError extends Error {
  override name = "TestEmailError";
}

/** The first problem of the payload as one message, or the parsed payload. */
export function parseTestEmail(
  input: unknown,
): { success: true; data: z.output<typeof testEmailSchema> } | { success: false; message: string } {
  const parsed = testEmailSchema.safeParse(input ?? {});
  if (parsed.success) return { success: true, data: parsed.data };
  return { success: false, message: parsed.error.issues[0]?.message ?? "The test email request is invalid." };
}

export interface TestEmailDeps {
  config: { publicOrigin: string };
  siteName?: string;
}

/**
 * Validates the payload and queues the email. Throws TestEmailError for a bad
 * payload, a link that may not go in an email, or a suppressed recipient.
 */
export async function sendTestEmail(
  db: Kysely<Database>,
  deps: TestEmailDeps,
  input: unknown,
): Promise<{ id: string; to: string; subject: string }> {
  const parsed = parseTestEmail(input);
  if (!parsed.success) throw new TestEmailError(parsed.message);
  const payload = parsed.data;
  const to = normalizeEmail(payload.email);
  if (await isSuppressed(db, to)) throw new TestEmailError("This address is on the suppression list");

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
    if (error instanceof UnsafeLinkError) throw new TestEmailError(error.message);
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
