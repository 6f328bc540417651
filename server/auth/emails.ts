import type { Kysely } from "kysely";
import type { Config } from "../config.ts";
import type { Database } from "../db/schema.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import { renderEmail } from "../mail/templates.ts";
import { SITE_NAME } from "../site.ts";
import { mayEmailResetLink } from "./password-reset-links.ts";

/** The account emails: password reset (within its per-address limit) and invitation, written to the outbox. */

export async function enqueuePasswordResetEmail(
  db: Kysely<Database>,
  config: Config,
  reset: { user: { email: string; name: string }; token: string },
): Promise<void> {
  // Past the address's hourly allowance the link is made but not sent: the answer to the
  // request stays the same, so it tells nobody whether the account exists.
  if (!(await mayEmailResetLink(db, reset.user.email))) return;
  const url = `${config.publicOrigin}/auth/reset-password?${new URLSearchParams({ token: reset.token })}`;
  const { html, text } = renderEmail({
    siteName: SITE_NAME,
    publicOrigin: config.publicOrigin,
    heading: "Reset your password",
    paragraphs: [
      `Hello ${reset.user.name || reset.user.email},`,
      "Someone asked to reset the password of your account. The link below works once and expires in 1 hour. Using it signs you out everywhere else.",
      "If you did not ask for this, ignore this email: your password stays as it is.",
    ],
    action: { label: "Choose a new password", url },
    reason: `You get this email because a password reset was requested for your ${SITE_NAME} account.`,
  });
  await enqueueEmail(db, {
    idempotencyKey: `password-reset:${reset.token}`,
    kind: "password-reset",
    to: reset.user.email,
    subject: `Reset your ${SITE_NAME} password`,
    html,
    text,
  });
}

export async function enqueueInvitationEmail(
  db: Kysely<Database>,
  config: Config,
  invitation: { id: string; email: string; token: string; invitedBy: string; role: string },
): Promise<void> {
  const url = `${config.publicOrigin}/auth/invite?${new URLSearchParams({ token: invitation.token })}`;
  const { html, text } = renderEmail({
    siteName: SITE_NAME,
    publicOrigin: config.publicOrigin,
    heading: `You are invited to ${SITE_NAME}`,
    paragraphs: [
      `${invitation.invitedBy} invited you to help manage ${SITE_NAME} as ${invitation.role === "admin" ? "an administrator" : "an editor"}.`,
      "Choose your name and a password to create your account. The link works once and expires in 7 days.",
    ],
    action: { label: "Create your account", url },
    reason: `You get this email because an administrator of ${SITE_NAME} invited ${invitation.email}.`,
  });
  await enqueueEmail(db, {
    idempotencyKey: `invitation:${invitation.id}`,
    kind: "invitation",
    to: invitation.email,
    subject: `You are invited to ${SITE_NAME}`,
    html,
    text,
  });
}
