import { EventEmitter, once } from "node:events";
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 for the mail tests: it keeps every message it
 * accepted, parsed, and lets a test answer RCPT TO with an error of its choice.
 */

export interface ReceivedMessage {
  envelopeTo: string[];
  parsed: ParsedMail;
}

export interface SmtpPeer {
  port: number;
  /** An SMTP_URL for this server. */
  url: string;
  received: ReceivedMessage[];
  /** Returns a reply such as `{ code: 451, message: "Try again later" }` to refuse a recipient. */
  rejectRecipient: (address: string) => { code: number; message: string } | undefined;
  /** Delay before the reply to the message data, to catch a send in progress. */
  dataDelayMs: number;
  /** Resolves once `count` messages arrived, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves when the next message's data starts arriving (a send is in progress). */
  nextData(): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpPeer(port = 0): Promise<SmtpPeer> {
  const received: ReceivedMessage[] = [];
  // "data" when a message's data starts, "message" once it is in `received`.
  const events = new EventEmitter();
  const peer: SmtpPeer = {
    port: 0,
    url: "",
    received,
    rejectRecipient: () => undefined,
    dataDelayMs: 0,
    async waitFor(count, timeoutMs = 5_000) {
      const signal = AbortSignal.timeout(timeoutMs);
      while (received.length < count) {
        await once(events, "message", { signal }).catch((error: Error) => {
          throw signal.aborted ? new Error(`Expected ${count} message(s), got ${received.length}`) : error;
        });
      }
    },
    nextData: async () => {
      await once(events, "data");
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const server = new SMTPServer({
    authOptional: true,
    // The default STARTTLS offer uses a self-signed certificate the client would refuse.
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 200,
    onRcptTo(address, _session, callback) {
      const rejection = peer.rejectRecipient(address.address);
      if (!rejection) return callback();
      const error = Object.assign(new Error(rejection.message), { responseCode: rejection.code });
      callback(error);
    },
    onData(stream, session, callback) {
      events.emit("data");
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        // Parsed before the 250 reply, so a test that saw the send succeed sees the message.
        const delay = new Promise((resolve) => setTimeout(resolve, peer.dataDelayMs));
        Promise.all([simpleParser(Buffer.concat(chunks)), delay]).then(
          ([parsed]) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), parsed });
            events.emit("message");
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  // A client that dies mid-session (a killed server process) resets its connection:
  // that is the client's failure to observe, not an error of the peer's.
  server.on("error", () => {});
  peer.port = (server.server.address() as AddressInfo).port;
  peer.url = `smtp://127.0.0.1:${peer.port}`;
  return peer;
}
