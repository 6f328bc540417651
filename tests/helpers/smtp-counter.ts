import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP peer that counts the messages it accepted per recipient and keeps each
 * one's envelope (sender and recipients), without parsing them: mailparser on 10,000
 * messages would cost a benchmark the CPU the load generator and the server need. The
 * sender tells instances apart when they send as different MAIL_FROM addresses. It can
 * be stopped and started again on the same port, as a mail relay that goes away and
 * comes back would be: the server's SMTP_URL stays the same. Used by bench:load and the
 * scale tests.
 */

export interface AcceptedMessage {
  from: string;
  to: string[];
}

export interface CountingPeer {
  url: string;
  /** Messages accepted per envelope recipient, across restarts. */
  received: Map<string, number>;
  /** The envelope of every message accepted, in order. */
  messages: AcceptedMessage[];
  /** Messages accepted in all. */
  total(): number;
  /** Stops listening and cuts the open sessions (after smtp-server's closeTimeout). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

export async function startCountingPeer(): Promise<CountingPeer> {
  const received = new Map<string, number>();
  const messages: AcceptedMessage[] = [];
  let accepted = 0;
  let server: SMTPServer | undefined;
  let port = 0;

  const listen = async () => {
    const next = new SMTPServer({
      authOptional: true,
      // The default STARTTLS offer uses a self-signed certificate the client would refuse.
      disabledCommands: ["STARTTLS"],
      logger: false,
      closeTimeout: 200,
      onData(stream, session, callback) {
        stream.resume();
        stream.on("end", () => {
          // Counted when the peer says 250: a client that never sees the reply (the
          // session was cut) sends the message again, and that is a duplicate here.
          for (const rcpt of session.envelope.rcptTo) received.set(rcpt.address, (received.get(rcpt.address) ?? 0) + 1);
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          });
          accepted += 1;
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      next.server.once("error", reject);
      next.listen(port, "127.0.0.1", () => resolve());
    });
    // A client that resets its connection is the client's failure to observe.
    next.on("error", () => {});
    port = (next.server.address() as AddressInfo).port;
    server = next;
  };

  await listen();
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    messages,
    total: () => accepted,
    stop: () =>
      new Promise<void>((resolve) => {
        const current = server;
        server = undefined;
        if (!current) return resolve();
        current.close(() => resolve());
      }),
    start: listen,
  };
}

/** Every recipient's count checked against the list: who got nothing, who got more than one. */
export function deliveryCheck(received: ReadonlyMap<string, number>, recipients: readonly string[]) {
  let missing = 0;
  let duplicates = 0;
  for (const address of recipients) {
    const count = received.get(address) ?? 0;
    if (count === 0) missing += 1;
    else duplicates += count - 1;
  }
  return { missing, duplicates };
}

/** How many messages each envelope recipient got, among `messages`. */
export function deliveriesPerRecipient(messages: readonly AcceptedMessage[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of messages) for (const to of message.to) counts.set(to, (counts.get(to) ?? 0) + 1);
  return counts;
}
