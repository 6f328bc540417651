import type { Transporter } from "nodemailer";
import addressparser from "nodemailer/lib/addressparser";
import type { Config } from "../config.ts";
import { SITE_NAME } from "../site.ts";
import type { OutboxRow } from "./outbox.ts";

/**
 * SMTP delivery through a nodemailer connection pool. Without SMTP_URL there is no
 * transport (the embedded default): emails stay in the outbox, see worker.ts.
 */

export interface MailTransport {
  /** Sends one outbox row; resolves with the Message-ID it carried. */
  send(email: OutboxRow): Promise<{ messageId: string; response: string }>;
  /** Closes idle pooled connections now and busy ones once their message is done. */
  close(): void;
}

export type MailSettings = Pick<Config, "publicOrigin"> & { mail: Pick<Config["mail"], "smtpUrl" | "from"> };

/**
 * Timeouts well under the worker's lease (nodemailer's socket default is 10 minutes):
 * a stalled server fails the send and it is retried, rather than holding the row
 * (whose lease the worker renews while it sends, worker.ts) for as long as it stalls.
 */
const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

/**
 * `connections` is the most sends in flight at once: with fewer connections than sends,
 * the pool would queue a send inside it, where the worker's check of the row's lease
 * (worker.ts) no longer sees it and the lease may expire before the send starts.
 */
export function createMailTransport(
  settings: MailSettings,
  siteName: string = SITE_NAME,
  connections = 5,
): MailTransport | undefined {
  const smtpUrl = settings.mail.smtpUrl;
  if (!smtpUrl) return undefined;
  // nodemailer is loaded with the first email: a server that sends none never holds it.
  let pool: Promise<Transporter> | undefined;
  const connect = () => {
    pool ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        pool: true,
        maxConnections: connections,
        ...TIMEOUTS,
        // Rows never carry attachments: nothing may read local files or fetch URLs.
        disableFileAccess: true,
        disableUrlAccess: true,
      }),
    );
    return pool;
  };
  const from = fromAddress(settings.mail.from, siteName);
  const host = new URL(settings.publicOrigin).hostname;

  return {
    async send(email) {
      // The row id is unique, so is the Message-ID; a retry of the same row keeps it,
      // which lets receivers recognise a duplicate after an uncertain delivery.
      const messageId = `<${email.id}@${host}>`;
      const transporter = await connect();
      const info = await transporter.sendMail({
        from,
        to: email.to_address,
        subject: email.subject,
        text: email.text_body,
        html: email.html_body,
        headers: email.headers,
        messageId,
      });
      return { messageId, response: String(info.response ?? "") };
    },
    close: () => void pool?.then((transporter) => transporter.close()),
  };
}

/** MAIL_FROM as given when it has a display name; a bare address gets the site name. */
export function fromAddress(mailFrom: string, siteName: string): { name: string; address: string } | string {
  const [first] = addressparser(mailFrom, { flatten: true });
  if (first?.address && !first.name) return { name: siteName, address: first.address };
  return mailFrom;
}

export type SendFailure =
  /** 5xx to RCPT TO: this address does not take mail (a hard bounce). */
  | { kind: "recipient-rejected"; reply: string }
  /** 5xx to DATA: this message was refused for good; retrying sends the same bytes. */
  | { kind: "message-rejected"; reply: string }
  /** Anything else: connection trouble, 4xx, or a problem of ours (auth, sender). */
  | { kind: "temporary"; reply: string };

export function classifySendError(error: unknown): SendFailure {
  const details = (error ?? {}) as { responseCode?: unknown; command?: unknown; response?: unknown; message?: unknown };
  const code = typeof details.responseCode === "number" ? details.responseCode : 0;
  const reply =
    typeof details.response === "string" && details.response
      ? details.response
      : typeof details.message === "string"
        ? details.message
        : String(error);
  if (code >= 500 && code < 600) {
    if (details.command === "RCPT TO") return { kind: "recipient-rejected", reply };
    if (details.command === "DATA") return { kind: "message-rejected", reply };
  }
  return { kind: "temporary", reply };
}
