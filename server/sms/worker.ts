import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { startPolledRuns } from "../jobs/polled-runs.ts";
import type { Logger } from "../logger.ts";
import { retryDelayMs } from "../mail/worker.ts";
import { type ClaimedSms, claimNextSms, finishSms, type SmsOutcome } from "./outbox.ts";
import { createSmsTransport, PermanentSmsFailure } from "./transport.ts";

/**
 * Sends the SMS outbox, inside the server process, as the mail worker sends email:
 * due rows are claimed with a lease (outbox.ts), so several instances on one database
 * send each message once, and a crashed instance's messages are taken over when their
 * lease expires. Messages are few (sign-in codes), so they are sent one at a time, each
 * claimed right before its send: its lease then covers that one send (the transport's
 * timeout is well under it), never a wait behind other messages, and stop() waits for
 * one send at most.
 */

export const NO_SMS_PROVIDER_REASON = "not sent — no SMS provider configured";

export interface SmsWorkerOptions {
  db: Kysely<Database>;
  smsUrl: string | undefined;
  logger: Logger;
  /** How often due rows (retries, other instances' messages) are looked for. Default 5 s. */
  pollIntervalMs?: number;
  /** How long a claim holds before another worker may take the message over. Default 60 s. */
  leaseMs?: number;
  /** false: runs only when runOnce() is called (tests). Default true. */
  autoRun?: boolean;
}

export interface SmsWorker {
  /** Asks for a run soon: call after enqueueing so the message leaves at once. */
  wake(): void;
  /** Sends every message due now; resolves with how many it handled. */
  runOnce(): Promise<number>;
  /** Finishes the run under way and stops polling. */
  stop(): Promise<void>;
}

/** A code lives minutes: a few quick retries, then it is not worth sending. */
const MAX_ATTEMPTS = 4;
const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 60_000;

export function startSmsWorker(options: SmsWorkerOptions): SmsWorker {
  const { db } = options;
  const logger = options.logger.child({ component: "sms" });
  const pollIntervalMs = options.pollIntervalMs ?? 5_000;
  const leaseMs = options.leaseMs ?? 60_000;
  const transport = createSmsTransport(options.smsUrl);

  async function outcomeOf(sms: ClaimedSms): Promise<SmsOutcome> {
    if (Date.parse(sms.expires_at) <= Date.now()) {
      const error = "the code expired before the message could be sent";
      logger.warn(
        { smsId: sms.id, kind: sms.kind, to: sms.to_number, attempt: sms.attempts },
        `SMS not sent: ${error}`,
      );
      return { status: "failed", error };
    }
    if (!transport) {
      logger.info(
        { smsId: sms.id, kind: sms.kind, to: sms.to_number },
        `SMS not sent (no SMS_URL configured) to ${sms.to_number}: "${sms.body}"`,
      );
      return { status: "unsent", reason: NO_SMS_PROVIDER_REASON };
    }
    try {
      await transport.send({ id: sms.id, to: sms.to_number, text: sms.body });
      return { status: "sent" };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const context = { smsId: sms.id, kind: sms.kind, to: sms.to_number, attempt: sms.attempts, reason };
      const nextAttemptAt = new Date(Date.now() + retryDelayMs(sms.attempts, RETRY_BASE_MS, RETRY_MAX_MS));
      if (
        error instanceof PermanentSmsFailure ||
        sms.attempts >= MAX_ATTEMPTS ||
        nextAttemptAt >= new Date(sms.expires_at)
      ) {
        logger.warn(context, "SMS not sent");
        return { status: "failed", error: reason };
      }
      logger.warn(context, "SMS not sent; will retry");
      return { status: "retry", error: reason, nextAttemptAt: nextAttemptAt.toISOString() };
    }
  }

  async function drain(): Promise<number> {
    let handled = 0;
    while (!runs.stopping) {
      const sms = await claimNextSms(db, leaseMs);
      if (!sms) break;
      const outcome = await outcomeOf(sms);
      if (!(await finishSms(db, sms, outcome)) && outcome.status === "sent") {
        logger.warn({ smsId: sms.id }, "SMS sent after its lease was taken over; it may arrive twice");
      }
      handled += 1;
    }
    return handled;
  }

  const runs = startPolledRuns({
    run: drain,
    pollIntervalMs,
    autoRun: options.autoRun,
    logger,
    failureMessage: "SMS worker run failed; retrying at the next poll",
  });
  if (!transport) logger.info("No SMS_URL: text messages are kept in the outbox and logged");

  return { wake: runs.wake, runOnce: runs.runOnce, stop: runs.stop };
}
