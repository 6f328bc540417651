import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { Invalid, TooLarge } from "../errors.ts";
import { checkedLookup, isPublicAddress, RefusedAddress } from "./public-address.ts";
import { FILE_TOO_LARGE_MESSAGE, MAX_IMAGE_BYTES } from "./rules.ts";

/**
 * Fetches an image an editor pasted by URL, once, so that pages serve our copy and
 * visitors never load a third-party image. Safe against server-side request forgery:
 * http(s) only, no credentials in the URL, every hop's address checked after DNS
 * resolution (and IP literals before it) with redirects followed by hand, a size
 * cap counted while reading, and one deadline for the whole fetch.
 */

export const NOT_HTTP_MESSAGE = "Only http:// and https:// image URLs can be imported.";
export const REFUSED_ADDRESS_MESSAGE = "Images can only be imported from public internet addresses.";
export const TIMEOUT_MESSAGE = "The image took too long to download.";
export const TOO_MANY_REDIRECTS_MESSAGE = "The image URL redirects too many times.";
export const INVALID_REDIRECT_MESSAGE = "The image URL redirects to an address that is not a valid URL.";

export interface FetchImageOptions {
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Which addresses may be connected to: public unicast only, unless a test widens it. */
  isAllowedAddress?: (address: string) => boolean;
}

const DEFAULTS = { maxBytes: MAX_IMAGE_BYTES, timeoutMs: 10_000, maxRedirects: 3 };

export async function fetchImage(url: string, options: FetchImageOptions = {}): Promise<Buffer> {
  const { maxBytes, timeoutMs, maxRedirects } = { ...DEFAULTS, ...options };
  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  const deadline = AbortSignal.timeout(timeoutMs);

  let target = parseTarget(url);
  for (let hop = 0; ; hop++) {
    const response = await open(target, isAllowed, deadline);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.destroy();
      if (hop >= maxRedirects) throw new Invalid({ url: TOO_MANY_REDIRECTS_MESSAGE });
      target = parseTarget(redirectTarget(location, target));
      continue;
    }
    if (status !== 200) {
      response.destroy();
      throw new Invalid({ url: `The image could not be downloaded (HTTP ${status}).` });
    }
    return readLimited(response, maxBytes, deadline);
  }
}

function parseTarget(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Invalid({ url: NOT_HTTP_MESSAGE });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Invalid({ url: NOT_HTTP_MESSAGE });
  if (parsed.username || parsed.password)
    throw new Invalid({ url: "The image URL must not contain a user name or password." });
  return parsed;
}

/** Where a redirect leads; a Location that is no URL at all is the remote site's error, refused as such. */
function redirectTarget(location: string, from: URL): string {
  try {
    return new URL(location, from).href;
  } catch {
    throw new Invalid({ url: INVALID_REDIRECT_MESSAGE });
  }
}

/** One request, its address checked: literal IPs here (net.connect does not look them up), names in the lookup. */
function open(target: URL, isAllowed: (address: string) => boolean, deadline: AbortSignal): Promise<IncomingMessage> {
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !isAllowed(host)) return Promise.reject(new Invalid({ url: REFUSED_ADDRESS_MESSAGE }));
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      target,
      {
        agent: false,
        lookup: checkedLookup(isAllowed),
        signal: deadline,
        headers: { Accept: "image/jpeg, image/png, image/webp, image/gif", "User-Agent": "Bastion media import" },
      },
      resolve,
    );
    outgoing.once("error", (error) => reject(networkFailure(error, deadline)));
    outgoing.end();
  });
}

function readLimited(response: IncomingMessage, maxBytes: number, deadline: AbortSignal): Promise<Buffer> {
  const declared = Number(response.headers["content-length"]);
  if (declared > maxBytes) {
    response.destroy();
    return Promise.reject(new TooLarge(FILE_TOO_LARGE_MESSAGE));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    response.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        response.destroy();
        reject(new TooLarge(FILE_TOO_LARGE_MESSAGE));
        return;
      }
      chunks.push(chunk);
    });
    response.once("end", () => resolve(Buffer.concat(chunks)));
    response.once("error", (error) => reject(networkFailure(error, deadline)));
    response.once("close", () => {
      if (!response.complete) reject(networkFailure(new Error("The connection closed early."), deadline));
    });
  });
}

function networkFailure(error: Error, deadline: AbortSignal): Error {
  if (error instanceof Invalid || error instanceof TooLarge) return error;
  if (error instanceof RefusedAddress) return new Invalid({ url: REFUSED_ADDRESS_MESSAGE });
  if (deadline.aborted) return new Invalid({ url: TIMEOUT_MESSAGE });
  return new Invalid({
    url: `The image could not be downloaded (${(error as NodeJS.ErrnoException).code ?? error.message}).`,
  });
}
