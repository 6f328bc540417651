import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP endpoint in the shape SMS_URL expects (one JSON POST `{id, to, text}` per
 * message, Basic credentials): it keeps every message it accepted with the user name it
 * came with, so that instances given different credentials can be told apart. Each
 * answer waits `delayMs`, as a provider's round trip does.
 */

export interface ReceivedSms {
  id: string;
  to: string;
  sender: string;
}

export interface SmsReceiver {
  /** SMS_URL for an instance that identifies itself as `sender`. */
  urlFor(sender: string): string;
  received: ReceivedSms[];
  close(): Promise<void>;
}

export async function startSmsReceiver(delayMs: number): Promise<SmsReceiver> {
  const received: ReceivedSms[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const credentials = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
      const sender = Buffer.from(credentials, "base64").toString("utf8").split(":")[0] ?? "";
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string; to: string };
      setTimeout(() => {
        received.push({ id: message.id, to: message.to, sender });
        res.writeHead(202, { "content-type": "application/json" }).end('{"queued":true}');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    urlFor: (sender) => `http://${sender}:key@127.0.0.1:${port}/messages`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
