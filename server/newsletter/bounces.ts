import type { Kysely } from "kysely";
import type { BOUNCE_TYPES, Database } from "../db/schema.ts";
import { newId } from "../ids.ts";
import { markBounced } from "./subscribers.ts";
import { addSuppression, normalizeEmail } from "./suppression.ts";

/**
 * Bounces and complaints: a hard bounce or a complaint, or three soft bounces within
 * 30 days, mark the subscriber `bounced` and put the address on the suppression list.
 */

export type BounceType = (typeof BOUNCE_TYPES)[number];

const SOFT_BOUNCE_LIMIT = 3;
const SOFT_BOUNCE_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export interface BounceReport {
  email: string;
  type: BounceType;
  reason?: string;
}

/** Records the bounce; resolves with whether the address is now suppressed because of it. */
export async function recordBounce(db: Kysely<Database>, report: BounceReport, now = new Date()): Promise<boolean> {
  const email = normalizeEmail(report.email);
  const reason = (report.reason ?? "").trim().slice(0, 1000);
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto("newsletter_bounces")
      .values({ id: newId("bounce"), email, type: report.type, reason, received_at: now.toISOString() })
      .execute();
    // The suppression list shows "Hard bounce: <the provider's reason>", or the kind
    // alone when the report gave none (the webhook's reason is optional).
    const because = (kind: string) => (reason ? `${kind}: ${reason}` : kind);
    let suppressionReason: string | null = null;
    if (report.type === "hard") suppressionReason = because("Hard bounce");
    else if (report.type === "complaint") suppressionReason = because("Complaint");
    else {
      const since = new Date(now.getTime() - SOFT_BOUNCE_WINDOW_MS).toISOString();
      const row = await trx
        .selectFrom("newsletter_bounces")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("email", "=", email)
        .where("type", "=", "soft")
        .where("received_at", ">=", since)
        .executeTakeFirstOrThrow();
      if (Number(row.count) >= SOFT_BOUNCE_LIMIT) suppressionReason = because("Repeated soft bounces");
    }
    if (suppressionReason === null) return false;
    await markBounced(trx, email, now);
    await addSuppression(trx, { email, reason: suppressionReason });
    return true;
  });
}

/** For the mail worker's onPermanentFailure: the SMTP server rejected the recipient for good. */
export async function recordHardBounce(db: Kysely<Database>, email: string, reply: string): Promise<void> {
  await recordBounce(db, { email, type: "hard", reason: reply });
}
