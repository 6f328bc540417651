import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { startPolledRuns } from "../jobs/polled-runs.ts";
import type { Logger } from "../logger.ts";
import {
  type ClaimedEmail,
  type ClaimOutcome,
  claimDueEmails,
  clearSentBodies,
  type FinishedClaim,
  finishClaims,
  type OutboxRow,
  renewLease,
  SENT_BODY_DAYS,
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
  /** Emails in flight at once, each on its own pooled SMTP connection. Default 5. */
  concurrency?: number;
  /**
   * Rows claimed per query, then sent `concurrency` at a time: one claim and one
   * commit of outcomes per batch rather than per email. Default 200.
   */
  claimSize?: number;
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
   * Asked for each claimed batch, right before sending it: the emails not to send (an
   * address suppressed since the email was queued), by row id, with the reason that
   * marks each of them failed instead.
   */
  refuseRecipients?: (emails: readonly OutboxRow[]) => Promise<ReadonlyMap<string, string>>;
}

export interface MailWorker {
  /**
   * Asks for a run soon (debounced), or in `afterMs`: call after enqueueing so the email
   * leaves at once, or once an answer held at a floor has left (server/answer-floor.ts).
   */
  wake(afterMs?: number): void;
  /** Sends every email due now; resolves with how many it handled. */
  runOnce(): Promise<number>;
  /** Finishes the emails in flight, stops polling and closes the SMTP pool. */
  stop(): Promise<void>;
}

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
  const concurrency = Math.max(1, options.concurrency ?? 5);
  const claimSize = Math.max(concurrency, options.claimSize ?? 200);
  const transport = createMailTransport(config, options.siteName, concurrency);
  const outcomes = createOutcomeRecorder(db, logger);

  let stopped: Promise<void> | undefined;

  async function deliver(email: ClaimedEmail): Promise<void> {
    if (!transport) {
      outcomes.record(email, { status: "unsent", reason: NO_SMTP_REASON });
      const links = linksIn(email.text_body);
      logger.info(
        { emailId: email.id, kind: email.kind, to: email.to_address, subject: email.subject, links },
        `Email not sent (no SMTP configured): "${email.subject}" to ${email.to_address}${links.length ? ` ${links.join(" ")}` : ""}`,
      );
      return;
    }
    const stopRenewing = holdLease(email);
    try {
      const { messageId } = await transport.send(email);
      await stopRenewing();
      outcomes.record(email, { status: "sent", messageId });
    } catch (error) {
      await stopRenewing();
      await recordFailure(email, error);
    }
  }

  /**
   * Renews the claim of an email every third of its lease while it is being sent: a
   * send may take longer than the lease (a slow server, each of its replies within the
   * transport's timeouts), and another instance would then take the row over and send
   * it again. Returns what ends the renewals, resolved once none is under way, so that
   * the outcome is recorded against the last lease.
   */
  function holdLease(email: ClaimedEmail): () => Promise<void> {
    let renewing = Promise.resolve();
    const timer = setInterval(() => {
      renewing = renewing.then(async () => {
        try {
          const lease = await renewLease(db, email, leaseMs);
          if (lease) email.lease_expires_at = lease;
          else clearInterval(timer);
        } catch (error) {
          logger.warn({ err: error, emailId: email.id }, "Could not renew the lease of an email being sent");
        }
      });
    }, leaseMs / 3);
    return () => {
      clearInterval(timer);
      return renewing;
    };
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
        retryLater(email, failure.reply);
        return;
      }
    }
    if (failure.kind !== "temporary") {
      outcomes.record(email, { status: "failed", error: failure.reply });
      logger.warn({ ...context, reply: failure.reply }, "Email permanently rejected");
      return;
    }
    retryLater(email, failure.reply);
  }

  function retryLater(email: ClaimedEmail, reply: string): void {
    const context = { emailId: email.id, kind: email.kind, to: email.to_address, attempt: email.attempts, reply };
    if (email.attempts >= maxAttempts) {
      outcomes.record(email, { status: "failed", error: reply });
      logger.error(context, `Email failed after ${email.attempts} attempts`);
      return;
    }
    const next = new Date(Date.now() + retryDelayMs(email.attempts, retryBaseMs, retryMaxMs)).toISOString();
    outcomes.record(email, { status: "retry", error: reply, nextAttemptAt: next });
    logger.warn({ ...context, nextAttemptAt: next }, "Email not sent; will retry");
  }

  /**
   * Claims a batch and sets aside the emails refuseRecipients names, and those claimed
   * more than maxAttempts times: each earlier claim ended without an outcome (its
   * worker died while sending it), and an email that kills its sender is not tried
   * forever. Returns the rest.
   */
  async function claimBatch(now: string): Promise<{ rows: ClaimedEmail[]; claimed: number; more: boolean }> {
    const claim = await claimDueEmails(db, { now, leaseMs, limit: claimSize });
    const triable = claim.rows.filter((email) => {
      if (email.attempts <= maxAttempts) return true;
      const error = `Not sent: given up after ${email.attempts - 1} attempts that ended without an outcome`;
      outcomes.record(email, { status: "failed", error });
      logger.error({ emailId: email.id, kind: email.kind, to: email.to_address, attempt: email.attempts }, error);
      return false;
    });
    const refusals = triable.length && options.refuseRecipients ? await refuseOrRelease(triable) : new Map();
    const rows: ClaimedEmail[] = [];
    for (const email of triable) {
      const refusal = refusals.get(email.id);
      if (refusal === undefined) {
        rows.push(email);
        continue;
      }
      outcomes.record(email, { status: "failed", error: refusal });
      logger.info({ emailId: email.id, kind: email.kind, to: email.to_address }, `Email not sent: ${refusal}`);
    }
    return { rows, claimed: claim.rows.length, more: claim.more };
  }

  /** The refusals for a claimed batch; if they cannot be known, the batch is given back. */
  async function refuseOrRelease(rows: ClaimedEmail[]): Promise<ReadonlyMap<string, string>> {
    try {
      return (await options.refuseRecipients?.(rows)) ?? new Map();
    } catch (error) {
      for (const row of rows) outcomes.record(row, { status: "released" });
      throw error;
    }
  }

  /**
   * Keeps `concurrency` sends in flight from a local queue of claimed rows: each send
   * that ends starts the next at once, and the next batch is claimed while the queue
   * still holds a round of sends. A row that waited in the queue for half its lease
   * is given back rather than sent late: a send starts with at least half its lease
   * left, and holdLease() renews it from then on. Rows count as due against the time
   * the run started: a row rescheduled during the run waits for a later run.
   */
  function drain(): Promise<number> {
    const now = new Date().toISOString();
    const queue: ClaimedEmail[] = [];
    let inFlight = 0;
    let handled = 0;
    let more = true;
    let claiming = false;
    let claimError: unknown;
    const { promise: done, resolve, reject } = Promise.withResolvers<number>();

    function pump(): void {
      while (inFlight < concurrency && queue.length > 0) {
        const email = queue.shift() as ClaimedEmail;
        if (runs.stopping || Date.parse(email.lease_expires_at) - Date.now() < leaseMs / 2) {
          outcomes.record(email, { status: "released" });
          continue;
        }
        inFlight += 1;
        void deliver(email).finally(() => {
          inFlight -= 1;
          pump();
        });
      }
      if (claiming) return;
      if (more && !runs.stopping && claimError === undefined && queue.length < concurrency) {
        claiming = true;
        claimBatch(now)
          .then(
            (batch) => {
              queue.push(...batch.rows);
              handled += batch.claimed;
              // Every candidate went to another worker: there may be more behind them.
              more = batch.more;
            },
            (error: unknown) => {
              // Finish the sends already under way (stop() waits for this run), then report.
              claimError = error;
            },
          )
          .finally(() => {
            claiming = false;
            pump();
          });
        return;
      }
      // Nothing in flight and nothing claimed: the queue is empty, the run is over.
      if (inFlight === 0) {
        outcomes.flush().then(() => (claimError === undefined ? resolve(handled) : reject(claimError)));
      }
    }

    pump();
    return done;
  }

  /** When the bodies of old sent emails were last emptied (outbox.ts, SENT_BODY_DAYS): once an hour is enough. */
  let bodiesClearedAt = Number.NEGATIVE_INFINITY;

  async function clearOldBodies(): Promise<void> {
    if (Date.now() - bodiesClearedAt < CLEAR_BODIES_EVERY_MS) return;
    bodiesClearedAt = Date.now();
    try {
      const cleared = await clearSentBodies(db, new Date(Date.now() - SENT_BODY_DAYS * 86_400_000));
      if (cleared > 0) {
        logger.info({ cleared }, `Emptied the bodies of ${cleared} emails sent more than ${SENT_BODY_DAYS} days ago`);
      }
    } catch (error) {
      // Sending comes first: tried again in an hour.
      logger.error({ err: error }, "Could not empty the bodies of old sent emails");
    }
  }

  const runs = startPolledRuns({
    run: async () => {
      await clearOldBodies();
      return drain();
    },
    pollIntervalMs,
    autoRun: options.autoRun,
    logger,
    failureMessage: "Mail worker run failed; retrying at the next poll",
  });
  if (!transport) logger.info("No SMTP_URL: emails are kept in the outbox and their links logged");

  return {
    wake: runs.wake,
    runOnce: runs.runOnce,
    stop() {
      stopped ??= runs.stop().then(() => transport?.close());
      return stopped;
    },
  };
}

const CLEAR_BODIES_EVERY_MS = 3_600_000;
const RECORD_BATCH_SIZE = 200;
const RECORD_DELAY_MS = 50;

/**
 * Outcomes are written in batches, at most RECORD_DELAY_MS after the send: one commit
 * for many emails. If the process dies in between, those rows are sent again once
 * their lease expires, with the same Message-ID (transport.ts), which receivers use
 * to drop the duplicate; the same holds for a crash between a send and its record.
 */
function createOutcomeRecorder(db: Kysely<Database>, logger: Logger) {
  let pending: FinishedClaim[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  async function write(batch: FinishedClaim[]): Promise<void> {
    try {
      const recorded = await finishClaims(db, batch);
      recorded.forEach((ok, index) => {
        const claim = batch[index];
        if (!ok && claim?.outcome.status === "sent") {
          logger.warn({ emailId: claim.row.id }, "Email sent after its lease was taken over; it may arrive twice");
        }
      });
    } catch (error) {
      logger.error(
        { err: error, emailIds: batch.map((claim) => claim.row.id) },
        "Could not record the outcome of emails; they are handled again when their lease expires",
      );
    }
  }

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length > 0) {
      const batch = pending;
      pending = [];
      writing = writing.then(() => write(batch));
    }
    return writing;
  }

  return {
    record(row: ClaimedEmail, outcome: ClaimOutcome): void {
      pending.push({ row, outcome });
      if (pending.length >= RECORD_BATCH_SIZE) void flush();
      else timer ??= setTimeout(flush, RECORD_DELAY_MS);
    },
    flush,
  };
}
