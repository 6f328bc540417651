import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { gunzipSync } from "node:zlib";

/**
 * A small HTTP client on node:http, for tests that need full control of the request
 * headers (Origin, Content-Length, Transfer-Encoding, Accept-Encoding) and the raw
 * response. fetch() would add, normalise or decode some of them.
 */

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as received (not decoded). */
  body: Buffer;
  /** The body as text, gunzipped when Content-Encoding says gzip. */
  text(): string;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Keep-alive agent etc.; a fresh connection by default. */
  agent?: import("node:http").Agent | false;
}

export function request(url: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers, agent: options.agent ?? false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.once("error", reject);
        response.once("end", () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            text: () => (response.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body).toString("utf8"),
          });
        });
      },
    );
    outgoing.once("error", reject);
    outgoing.end(options.body);
  });
}

/** A header's single value (joined when repeated). */
export function header(response: RawResponse, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
}
