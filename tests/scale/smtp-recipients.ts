import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server that keeps, for every message it accepted, its envelope sender
 * and recipients (RCPT TO) and nothing else: enough to count deliveries per address
 * across thousands of messages, and to tell which instance sent each one when the
 * instances send as different MAIL_FROM addresses.
 */

export interface AcceptedMessage {
  from: string;
  to: string[];
}

export interface RecipientCollector {
  url: string;
  accepted: AcceptedMessage[];
  close(): Promise<void>;
}

export async function startRecipientCollector(): Promise<RecipientCollector> {
  const accepted: AcceptedMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // The default STARTTLS offer uses a self-signed certificate the client would refuse.
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 200,
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        accepted.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        });
        callback();
      });
    },
  });
  // A client that goes away mid-session (a stopped instance) resets its connection.
  server.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** How many messages each envelope recipient got. */
export function deliveriesPerRecipient(accepted: readonly AcceptedMessage[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of accepted) for (const to of message.to) counts.set(to, (counts.get(to) ?? 0) + 1);
  return counts;
}
