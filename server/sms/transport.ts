/**
 * Delivery through an HTTP SMS provider (SMS_URL): one JSON POST per message,
 * `{ "id", "to", "text" }`, where `id` is the outbox row's (the same on a retry, so a
 * provider can drop a duplicate). Credentials in the URL (https://user:key@host/…) go
 * in a Basic Authorization header, since fetch refuses them in the URL. Without
 * SMS_URL there is no transport (the embedded default): see worker.ts.
 */

export interface SmsTransport {
  send(message: { id: string; to: string; text: string }): Promise<void>;
}

/** A refusal that sending the same message again cannot change (a 3xx, or a 4xx other than 408 and 429). */
export class PermanentSmsFailure extends Error {
  override name = "PermanentSmsFailure";
}

/** Well under the worker's lease, so that no other instance takes a message over mid-send. */
const TIMEOUT_MS = 15_000;

export function createSmsTransport(smsUrl: string | undefined): SmsTransport | undefined {
  if (!smsUrl) return undefined;
  const url = new URL(smsUrl);
  const headers = new Headers({ "content-type": "application/json", accept: "application/json" });
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.set("authorization", `Basic ${Buffer.from(credentials).toString("base64")}`);
    url.username = "";
    url.password = "";
  }
  const endpoint = url.toString();

  return {
    async send(message) {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: "POST",
          headers,
          body: JSON.stringify(message),
          // Followed, a 301 or 302 turns the POST into a GET without the message, which
          // a provider's page may answer with a 200: the message would count as sent.
          redirect: "manual",
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw unreachable(error);
      }
      if (response.ok) {
        await response.body?.cancel();
        return;
      }
      // A redirect's target is where SMS_URL should point.
      const location = response.headers.get("location");
      const text = (await response.text()).slice(0, 200);
      const reply = [response.status, location && `(redirects to ${location})`, text].filter(Boolean).join(" ");
      const temporary = response.status >= 500 || response.status === 408 || response.status === 429;
      throw temporary ? new Error(`The SMS provider answered ${reply}`) : new PermanentSmsFailure(reply);
    },
  };
}

/** fetch's own message is only "fetch failed": its cause says why (refused, DNS, certificate). */
function unreachable(error: unknown): Error {
  const cause = error instanceof Error ? error.cause : undefined;
  const why = cause instanceof Error ? cause.message || (cause as NodeJS.ErrnoException).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`The SMS provider could not be reached: ${why ? `${message}: ${why}` : message}`, { cause: error });
}
