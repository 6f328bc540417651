import { Writable } from "node:stream";
import type { Kysely } from "kysely";
import pino from "pino";
import { loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/schema.ts";
import type { Logger } from "../../server/logger.ts";
import { enqueueEmail } from "../../server/mail/outbox.ts";
import { renderEmail } from "../../server/mail/templates.ts";

export const PUBLIC_URL = "https://bastion.test";

/** The configuration the server would build from this environment. */
export function mailConfig(smtpUrl?: string) {
  return loadConfig({ NODE_ENV: "test", PUBLIC_URL, ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}) });
}

/** A logger whose JSON lines are kept in `lines`. */
export function memoryLogger(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: "info", base: undefined }, stream);
  return { logger, lines: () => raw.flatMap((text) => text.trim().split("\n")).map((line) => JSON.parse(line)) };
}

/** Enqueues a rendered email to `to`, keyed by `key`. */
export function enqueueTestEmail(
  db: Kysely<Database>,
  key: string,
  to = "reader@example.test",
  extra: { headers?: Record<string, string>; subject?: string; batchId?: string } = {},
) {
  const { html, text } = renderEmail({
    siteName: "Bastion",
    publicOrigin: PUBLIC_URL,
    heading: `Hello ${key}`,
    paragraphs: ["Please confirm your subscription."],
    action: { label: "Confirm", url: `${PUBLIC_URL}/newsletter/confirm?token=${encodeURIComponent(key)}` },
    reason: "You asked to subscribe to the Bastion newsletter.",
  });
  return enqueueEmail(db, {
    idempotencyKey: key,
    kind: "test",
    to,
    subject: extra.subject ?? `Subject ${key}`,
    html,
    text,
    headers: extra.headers,
    batchId: extra.batchId,
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function outboxRow(db: Kysely<Database>, id: string) {
  return db.selectFrom("email_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** Waits until the row's next attempt is due. */
export async function waitUntilDue(db: Kysely<Database>, id: string): Promise<void> {
  const row = await outboxRow(db, id);
  await sleep(Math.max(0, Date.parse(row.next_attempt_at) - Date.now() + 5));
}
