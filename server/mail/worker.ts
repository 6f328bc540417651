import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import {
  type ClaimedEmail,
  claimDueEmails,
  markFailed,
  markForRetry,
  markSent,
  markUnsent,
  type OutboxRow,
} from "./outbox.ts";
import { classifySendError, createMailTransport, type MailSettings } from "./transport.ts";

/**
 * Sends the outbox, inside the server process. Several instances may run it over one
 * PostgreSQL database: rows are claimed with a lease (outbox.ts), so each is sent by
 * one instance, and the rows of an instance that died are taken over when their
 * lease expires.
 */

export const NO_SMTP_REASON = "not sent — no SMTP configured";

export interface MailWorkerOptions {
  db: Kysely<Database>;
  config: MailSettings;
  logger: Logger;
  /** How often due rows (retries, other instances' emails) are looked for. Default 5 s. */
  pollIntervalMs?: number;
  /** How long a claim holds before another worker may take the row over. Default 2 min. */
  leaseMs?: number;
  /** Attempts before a temporarily failing email is `failed`. Default 8 (≈ 1 h of retries). */
  maxAttempts?: number;
  /** First retry delay, doubled at each attempt, capped by retryMaxMs; jittered. Default 30 s. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Emails in flight at once (the pool has 5 connections). Default 20. */
  batchSize?: number;
  /** Display name of From when MAIL_FROM has none. */
  siteName?: string;
  /** false: runs only when runOnce() is called (tests, CLI). Default true. */
  autoRun?: boolean;
  /**
   * A recipient rejected for good (5xx to RCPT TO), with the server's reply. Runs
   * before the row is marked failed; if it throws, the email is retried instead, so
   * the rejection is reported again rather than lost.
   */
  onPermanentFailure?: (email: OutboxRow, reply: string) => Promise<void> | void;
  /**
   * Asked right before sending: a reason not to send (an address suppressed since the
   * email was queued) marks the row failed with that reason instead.
   */
  refuseRecipient?: (email: OutboxRow) => Promise<string | null>;
}

export interface MailWorker {
  /** Asks for a run soon (debounced): call after enqueueing so the email leaves at once. */
  wake(): void;
  /** Sends every email due now; resolves with how many it handled. */
  runOnce(): Promise<number>;
  /** Finishes the emails in flight, stops polling and closes the SMTP pool. */
  stop(): Promise<void>;
}

const WAKE_DELAY_MS = 25;

/** Exponential backoff with "equal jitter": between half and all of base·2^(attempt-1), capped. */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The http(s) links of a plain-text body, for the log of an unsent email. */
export function linksIn(text: string): string[] {
  const links = text.match(/https?:\/\/[^\s<>"']+/g) ?? [];
  return [...new Set(links.map((link) => link.replace(/[.,;:!?)\]]+$/, "")))];
}

export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const { db, config } = options;
  const logger = options.logger.child({ component: "mail" });
  const pollIntervalMs = options.pollIntervalMs ?? 5_000;
  const leaseMs = options.leaseMs ?? 120_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const retryMaxMs = options.retryMaxMs ?? 3_600_000;
  const batchSize = Math.max(1, options.batchSize ?? 20);
  const transport = createMailTransport(config, options.siteName);

  let stopping = false;
  let stopped: Promise<void> | undefined;
  let tail: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let timerDueAt = Number.POSITIVE_INFINITY;

  async function deliver(email: ClaimedEmail): Promise<void> {
    try {
      const refusal = await options.refuseRecipient?.(email);
      if (refusal) {
        await markFailed(db, email, refusal);
        logger.info({ emailId: email.id, kind: email.kind, to: email.to_address }, `Email not sent: ${refusal}`);
        return;
      }
      if (!transport) {
        await markUnsent(db, email, NO_SMTP_REASON);
        const links = linksIn(email.text_body);
        logger.info(
          { emailId: email.id, kind: email.kind, to: email.to_address, subject: email.subject, links },
          `Email not sent (no SMTP configured): "${email.subject}" to ${email.to_address}${links.length ? ` ${links.join(" ")}` : ""}`,
        );
        return;
      }
      let messageId: string;
      try {
        ({ messageId } = await transport.send(email));
      } catch (error) {
        await recordFailure(email, error);
        return;
      }
      if (!(await markSent(db, email, messageId))) {
        logger.warn({ emailId: email.id }, "Email sent after its lease was taken over; it may arrive twice");
      }
    } catch (error) {
      logger.error({ err: error, emailId: email.id }, "Could not record the outcome of an email");
    }
  }

  async function recordFailure(email: ClaimedEmail, error: unknown): Promise<void> {
    const failure = classifySendError(error);
    const context = { emailId: email.id, kind: email.kind, to: email.to_address, attempt: email.attempts };
    if (failure.kind === "recipient-rejected" && options.onPermanentFailure) {
      try {
        await options.onPermanentFailure(email, failure.reply);
      } catch (hookError) {
        logger.error(
          { ...context, err: hookError },
          "Recording a permanent rejection failed; the email will be retried",
        );
        await retryLater(email, failure.reply);
        return;
      }
    }
    if (failure.kind !== "temporary") {
      await markFailed(db, email, failure.reply);
      logger.warn({ ...context, reply: failure.reply }, "Email permanently rejected");
      return;
    }
    await retryLater(email, failure.reply);
  }

  async function retryLater(email: ClaimedEmail, reply: string): Promise<void> {
    const context = { emailId: email.id, kind: email.kind, to: email.to_address, attempt: email.attempts, reply };
    if (email.attempts >= maxAttempts) {
      await markFailed(db, email, reply);
      logger.error(context, `Email failed after ${email.attempts} attempts`);
      return;
    }
    const next = new Date(Date.now() + retryDelayMs(email.attempts, retryBaseMs, retryMaxMs)).toISOString();
    await markForRetry(db, email, reply, next);
    logger.warn({ ...context, nextAttemptAt: next }, "Email not sent; will retry");
  }

  /**
   * Keeps up to batchSize sends in flight and claims more when half of them are done.
   * Rows count as due against the time the run started: a row rescheduled during the
   * run waits for a later run.
   */
  async function drain(): Promise<number> {
    const now = new Date().toISOString();
    const inFlight = new Set<Promise<void>>();
    let handled = 0;
    let more = true;
    let claimError: unknown;
    while (true) {
      if (more && !stopping && inFlight.size <= batchSize / 2) {
        let claim: Awaited<ReturnType<typeof claimDueEmails>>;
        try {
          claim = await claimDueEmails(db, { now, leaseMs, limit: batchSize - inFlight.size });
        } catch (error) {
          // Finish the sends already under way (stop() waits for this run), then report.
          claimError ??= error;
          claim = { rows: [], more: false };
        }
        more = claim.more;
        for (const email of claim.rows) {
          const sending: Promise<void> = deliver(email).finally(() => inFlight.delete(sending));
          inFlight.add(sending);
        }
        handled += claim.rows.length;
        // Every candidate went to another worker: there may be more behind them.
        if (claim.rows.length === 0 && more) continue;
      }
      if (inFlight.size === 0) {
        if (claimError) throw claimError;
        return handled;
      }
      await Promise.race(inFlight);
    }
  }

  function runOnce(): Promise<number> {
    if (stopping) return Promise.resolve(0);
    const run = tail.then(drain);
    tail = run.catch(() => {});
    return run;
  }

  /** Sets the timer unless one is already due sooner. */
  function schedule(delayMs: number): void {
    if (stopping || options.autoRun === false) return;
    const dueAt = Date.now() + delayMs;
    if (timer && timerDueAt <= dueAt) return;
    clearTimeout(timer);
    timerDueAt = dueAt;
    timer = setTimeout(tick, delayMs);
    timer.unref();
  }

  async function tick(): Promise<void> {
    timer = undefined;
    timerDueAt = Number.POSITIVE_INFINITY;
    try {
      await runOnce();
    } catch (error) {
      logger.error({ err: error }, "Mail worker run failed; retrying at the next poll");
    }
    schedule(pollIntervalMs);
  }

  schedule(0);
  if (!transport) logger.info("No SMTP_URL: emails are kept in the outbox and their links logged");

  return {
    wake: () => schedule(WAKE_DELAY_MS),
    runOnce,
    stop() {
      stopping = true;
      clearTimeout(timer);
      timer = undefined;
      stopped ??= tail.then(() => transport?.close());
      return stopped;
    },
  };
}
