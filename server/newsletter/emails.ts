import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import { renderEmail } from "../mail/templates.ts";
import { SITE_NAME } from "../site.ts";
import { NEWSLETTER_SETTING_DEFAULTS } from "./settings.ts";
import { isSuppressed } from "./suppression.ts";
import { listUnsubscribeHeaders, unsubscribeUrl } from "./tokens.ts";

/** The subscriber's emails: confirmation and welcome. Suppressed addresses get none. */

export interface EmailDeps {
  config: { publicOrigin: string };
  secret: string;
}

export async function enqueueConfirmationEmail(
  db: Kysely<Database>,
  deps: EmailDeps,
  subscriber: { id: string; email: string },
  token: string,
  tokenHash: string,
): Promise<boolean> {
  if (await isSuppressed(db, subscriber.email)) return false;
  const url = `${deps.config.publicOrigin}/newsletter/confirm?${new URLSearchParams({ token })}`;
  const { html, text } = renderEmail({
    siteName: SITE_NAME,
    publicOrigin: deps.config.publicOrigin,
    preheader: "One click to confirm your subscription.",
    heading: "Confirm your subscription",
    paragraphs: [
      `Someone, hopefully you, asked to receive ${SITE_NAME} updates at ${subscriber.email}.`,
      "Confirm with the button below. The link works once and expires in 7 days.",
      "If you did not ask for this, ignore this email: you will not be subscribed.",
    ],
    action: { label: "Confirm subscription", url },
    reason: `You get this email because ${subscriber.email} was entered in the newsletter form of ${SITE_NAME}.`,
  });
  await enqueueEmail(db, {
    idempotencyKey: `newsletter-confirm:${tokenHash}`,
    kind: "newsletter-confirmation",
    to: subscriber.email,
    subject: `Confirm your ${SITE_NAME} subscription`,
    html,
    text,
  });
  return true;
}

async function welcomeSettings(db: Kysely<Database>): Promise<{ subject: string; body: string }> {
  const rows = await db
    .selectFrom("newsletter_settings")
    .select(["setting_key", "setting_value"])
    .where("setting_key", "in", ["welcome_email_subject", "welcome_email_body"])
    .execute();
  const value = (key: "welcome_email_subject" | "welcome_email_body") =>
    rows.find((row) => row.setting_key === key)?.setting_value.trim() || NEWSLETTER_SETTING_DEFAULTS[key];
  return { subject: value("welcome_email_subject").replace(/[\r\n]+/g, " "), body: value("welcome_email_body") };
}

export async function enqueueWelcomeEmail(
  db: Kysely<Database>,
  deps: EmailDeps,
  subscriber: { id: string; email: string; confirmed_at: string },
): Promise<boolean> {
  if (await isSuppressed(db, subscriber.email)) return false;
  const { subject, body } = await welcomeSettings(db);
  const { html, text } = renderEmail({
    siteName: SITE_NAME,
    publicOrigin: deps.config.publicOrigin,
    heading: subject,
    paragraphs: body.split(/\r?\n\s*\r?\n/).filter((paragraph) => paragraph.trim() !== ""),
    action: { label: `Visit ${SITE_NAME}`, url: deps.config.publicOrigin },
    reason: `You get this email because you confirmed your subscription to ${SITE_NAME} updates.`,
    unsubscribeUrl: unsubscribeUrl(deps.config, deps.secret, subscriber.id),
  });
  await enqueueEmail(db, {
    idempotencyKey: `newsletter-welcome:${subscriber.id}:${subscriber.confirmed_at}`,
    kind: "newsletter-welcome",
    to: subscriber.email,
    subject,
    html,
    text,
    headers: listUnsubscribeHeaders(deps.config, deps.secret, subscriber.id),
  });
  return true;
}
