import { createHash } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlibConstants } from "node:zlib";
import fresh from "fresh";
import { LRUCache } from "lru-cache";
import Negotiator from "negotiator";
import type { ServedAnswer } from "../../analytics/page-views.ts";
import { type FlatHeaders, PAGE_CACHE_CONTROL, PAGE_CACHE_HEADER, PAGE_CACHE_VARY, storedHeaders } from "./rules.ts";
import { replaceNonceWithHashes } from "./script-hashes.ts";

/**
 * A cached page's answers (docs/decisions/008-page-cache.md): every answer a hit can
 * get — 200, HEAD and 304, per encoding, each with its strong ETag — made once when the
 * page is stored, and the choice of one of them for a request (content negotiation and
 * validators). index.ts decides what is stored and when.
 */

type Encoding = "br" | "gzip" | "identity";
/** Ours, in the order we prefer them when the client accepts several equally. */
const ENCODINGS: Encoding[] = ["br", "gzip", "identity"];
/** Smaller bodies are not worth compressing (compression()'s threshold too). */
const MIN_COMPRESSED_BYTES = 1024;
const PAGE_CACHE_HEADER_NAME = PAGE_CACHE_HEADER.toLowerCase();

/** One complete answer of a page, made when the page is stored: a hit allocates nothing of it. */
interface Answer {
  status: 200 | 304;
  headers: FlatHeaders;
  body: Buffer | undefined;
  /**
   * What the answer was (status and Content-Type), for the listener's accounting: one
   * object per page and status, the same for every answer, so that what is worked out
   * about it (whether it is a page view, and of which path) is remembered per object.
   */
  served: ServedAnswer;
  /**
   * The list a hit writes: `headers`, then the request's own (its id, HSTS), refilled
   * for each answer. A new list per hit copied the 30-odd stored entries, about 100 ns
   * of every hit and garbage for the collector. Refilling is safe because writeHead()
   * turns the list into the response's header text before it returns: no other answer
   * can see it half-refilled.
   */
  written: FlatHeaders;
}

interface Representation {
  etag: string;
  get: Answer;
  head: Answer;
  notModified: Answer;
}

export interface CachedPage {
  /** The content version the page was rendered at. */
  version: number;
  identity: Representation;
  gzip?: Representation;
  br?: Representation;
  /** Bytes held for this entry (all representations). */
  size: number;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

function tagFor(body: Buffer, suffix: string): string {
  const digest = createHash("sha256").update(body).digest("base64url").slice(0, 32);
  return `"${digest}${suffix}"`;
}

function answer(status: 200 | 304, headers: FlatHeaders, body: Buffer | undefined, served: ServedAnswer): Answer {
  return { status, headers, body, served, written: [...headers] };
}

function representation(
  headers: FlatHeaders,
  body: Buffer,
  etag: string,
  encoding: Encoding,
  served: { ok: ServedAnswer; notModified: ServedAnswer },
): Representation {
  const notModified = [...headers, "etag", etag];
  const ok = [...notModified, "content-length", String(body.length)];
  if (encoding !== "identity") ok.push("content-encoding", encoding);
  return {
    etag,
    get: answer(200, ok, body, served.ok),
    head: answer(200, ok, undefined, served.ok),
    notModified: answer(304, notModified, undefined, served.notModified),
  };
}

/** The entry of a rendered body: its headers as every answer replays them, and its compressed variants. */
export async function pageFrom(
  version: number,
  render: OutgoingHttpHeaders,
  renderedBody: Buffer,
  nonce: string,
): Promise<CachedPage> {
  const { headers: rendered, body } = replaceNonceWithHashes(render, renderedBody, nonce);
  const headers: FlatHeaders = [
    ...storedHeaders(rendered),
    "cache-control",
    PAGE_CACHE_CONTROL,
    "vary",
    PAGE_CACHE_VARY,
    PAGE_CACHE_HEADER_NAME,
    "hit",
  ];
  const contentType = String(rendered["content-type"]);
  const served = { ok: { status: 200, contentType }, notModified: { status: 304, contentType } };
  const page: CachedPage = {
    version,
    identity: representation(headers, body, tagFor(body, ""), "identity", served),
    size: body.length,
  };
  if (body.length < MIN_COMPRESSED_BYTES) return page;
  // Off the event loop (zlib's thread pool), both at once.
  const [gzipped, brotli] = await Promise.all([
    gzipAsync(body, { level: 6 }),
    brotliAsync(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  ]);
  page.gzip = representation(headers, gzipped, tagFor(body, "-gzip"), "gzip", served);
  page.br = representation(headers, brotli, tagFor(body, "-br"), "br", served);
  page.size += gzipped.length + brotli.length;
  return page;
}

/** negotiator 1.x breaks ties by a `preferred` order, which @types/negotiator does not declare. */
interface EncodingNegotiator {
  encodings(available: readonly string[], options: { preferred: readonly string[] }): string[];
}

/**
 * The encodings an Accept-Encoding header accepts, best first (negotiator; ties go to
 * our order). Remembered per header value: clients send few distinct ones. The last
 * value is also kept apart: browsers send the same one, and comparing it with the
 * request's costs less than hashing the request's (a new string each time) to look it up.
 */
const acceptedEncodings = new LRUCache<string, Encoding[]>({ max: 100 });

function negotiatedEncodings(header: string): Encoding[] {
  const negotiator = new Negotiator({ headers: { "accept-encoding": header } }) as unknown as EncodingNegotiator;
  return negotiator.encodings(ENCODINGS, { preferred: ENCODINGS }) as Encoding[];
}

let lastAcceptEncoding = "";
let lastAccepted = negotiatedEncodings(lastAcceptEncoding);

function encodingsAccepted(acceptEncoding: string | undefined): Encoding[] {
  const header = acceptEncoding ?? "";
  if (header === lastAcceptEncoding) return lastAccepted;
  let accepted = acceptedEncodings.get(header);
  if (!accepted) {
    accepted = negotiatedEncodings(header);
    acceptedEncodings.set(header, accepted);
  }
  lastAcceptEncoding = header;
  lastAccepted = accepted;
  return accepted;
}

/** A stored answer's headers, marked as the previous version of the page. */
export function markedStale(headers: FlatHeaders): FlatHeaders {
  return headers.map((value, index) => (index > 0 && headers[index - 1] === PAGE_CACHE_HEADER_NAME ? "stale" : value));
}

/** `answer.written` refilled with the request's own headers after the stored ones (see Answer.written). */
export function followedBy(answer: Answer, own: FlatHeaders): FlatHeaders {
  const list = answer.written;
  const stored = answer.headers.length;
  // Overwritten in place. Cutting the list (a call into the runtime) is needed only when
  // the number of the request's own headers changes, with HSTS.
  if (list.length === stored + own.length) {
    for (let index = 0; index < own.length; index += 1) list[stored + index] = own[index] as OutgoingHttpHeader;
  } else {
    list.length = stored;
    list.push(...own);
  }
  return list;
}

/**
 * Whether the request's validators match the representation (304). Most requests carry
 * none: they are told apart without a call to fresh().
 */
function isFresh(req: IncomingMessage, etag: string): boolean {
  const headers = req.headers;
  if (headers["if-none-match"] === undefined && headers["if-modified-since"] === undefined) return false;
  return fresh(headers, { etag });
}

/** The answer to `req` from `page`. */
export function answerFor(req: IncomingMessage, page: CachedPage): Answer {
  let chosen = page.identity;
  for (const encoding of encodingsAccepted(req.headers["accept-encoding"])) {
    const candidate = page[encoding];
    if (candidate) {
      chosen = candidate;
      break;
    }
  }
  if (isFresh(req, chosen.etag)) return chosen.notModified;
  return req.method === "HEAD" ? chosen.head : chosen.get;
}
