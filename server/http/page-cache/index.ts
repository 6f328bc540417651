import { createHash } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { finished } from "node:stream";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlibConstants } from "node:zlib";
import type { RequestHandler } from "express";
import fresh from "fresh";
import { LRUCache } from "lru-cache";
import Negotiator from "negotiator";
import { captureResponse } from "./capture.ts";
import {
  type FlatHeaders,
  isStorableResponse,
  PAGE_CACHE_CONTROL,
  PAGE_CACHE_HEADER,
  PAGE_CACHE_VARY,
  pageCacheKey,
  storedHeaders,
} from "./rules.ts";
import { replaceNonceWithHashes } from "./script-hashes.ts";

export { PAGE_CACHE_CONTROL } from "./rules.ts";

/**
 * The rendered-page cache for anonymous visitors (docs/decisions/008-page-cache.md).
 *
 * A public page answered 200 to a visitor without a session is kept in memory, keyed by
 * (content version, path), with its gzip and brotli variants, and every answer to it —
 * the first one included — comes from that entry: a strong ETag per representation, a
 * CDN-friendly Cache-Control and 304 on If-None-Match. A kept page carries no nonce: its
 * inline scripts are allowed by their hashes (script-hashes.ts), since a nonce served to
 * every visitor would be one anyone could reuse. Any
 * content write changes the content version: older entries become unreachable and are
 * dropped.
 *
 * The server's request listener asks respond() first (server/http/cached-pages.ts): a
 * hit is answered there, before Express. A miss that may be stored is remembered, and
 * capture (mounted just before the renderer) holds its rendered answer back, stores it
 * once its compressed variants are made, and answers it from the entry like a hit.
 */

export interface PageCacheOptions {
  /** The published content's version (PublishedContent.version()); changes on every content write. */
  version: () => number | string;
  /** At most this many pages (default 500). */
  maxEntries?: number;
  /** At most this many bytes over all entries and their compressed variants (default 64 MiB). */
  maxBytes?: number;
  /** Bodies larger than this are not cached (default 2 MiB). */
  maxBodyBytes?: number;
}

export interface ServedPage {
  status: number;
  contentType: string;
}

export interface PageCache {
  /**
   * Answers a hit in full from its precomputed response (plus `extraHeaders`, e.g.
   * HSTS), without any middleware. Undefined, with nothing written, for anything else;
   * a GET that the cache may keep is then remembered for capture. A GET of a page whose
   * render is under way waits for it (a promise) and is answered from its entry, or,
   * when the render was not kept, resolves undefined to be rendered itself.
   */
  respond(
    req: IncomingMessage,
    res: ServerResponse,
    extraHeaders?: FlatHeaders,
  ): ServedPage | undefined | Promise<ServedPage | undefined>;
  /**
   * Express middleware, just before the renderer: the rendered answer of a request
   * respond() remembered is held back, stored when it turns out storable, and answered
   * from its entry, ETag included. Anything else passes through untouched.
   */
  capture: RequestHandler;
}

type Encoding = "br" | "gzip" | "identity";
/** Ours, in the order we prefer them when the client accepts several equally. */
const ENCODINGS: Encoding[] = ["br", "gzip", "identity"];
/** Smaller bodies are not worth compressing (compression()'s threshold too). */
const MIN_COMPRESSED_BYTES = 1024;

interface Representation {
  body: Buffer;
  etag: string;
  /** The complete headers of a 200 and of a 304 with this representation. */
  ok: FlatHeaders;
  notModified: FlatHeaders;
}

interface CachedPage {
  contentType: string;
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

function representation(headers: FlatHeaders, body: Buffer, etag: string, encoding: Encoding): Representation {
  const notModified = [...headers, "etag", etag];
  const ok = [...notModified, "content-length", String(body.length)];
  if (encoding !== "identity") ok.push("content-encoding", encoding);
  return { body, etag, ok, notModified };
}

/** The entry of a rendered body: its headers as every answer replays them, and its compressed variants. */
async function pageFrom(render: OutgoingHttpHeaders, renderedBody: Buffer, nonce: string): Promise<CachedPage> {
  const { headers: rendered, body } = replaceNonceWithHashes(render, renderedBody, nonce);
  const headers: FlatHeaders = [
    ...storedHeaders(rendered),
    "cache-control",
    PAGE_CACHE_CONTROL,
    "vary",
    PAGE_CACHE_VARY,
    PAGE_CACHE_HEADER.toLowerCase(),
    "hit",
  ];
  const page: CachedPage = {
    contentType: String(rendered["content-type"]),
    identity: representation(headers, body, tagFor(body, ""), "identity"),
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
  page.gzip = representation(headers, gzipped, tagFor(body, "-gzip"), "gzip");
  page.br = representation(headers, brotli, tagFor(body, "-br"), "br");
  page.size += gzipped.length + brotli.length;
  return page;
}

/** negotiator 1.x breaks ties by a `preferred` order, which @types/negotiator does not declare. */
interface EncodingNegotiator {
  encodings(available: readonly string[], options: { preferred: readonly string[] }): string[];
}

/**
 * The encodings an Accept-Encoding header accepts, best first (negotiator; ties go to
 * our order). Remembered per header value: clients send few distinct ones.
 */
const acceptedEncodings = new LRUCache<string, Encoding[]>({ max: 100 });

function encodingsAccepted(acceptEncoding: string | undefined): Encoding[] {
  const header = acceptEncoding ?? "";
  let accepted = acceptedEncodings.get(header);
  if (!accepted) {
    const negotiator = new Negotiator({ headers: { "accept-encoding": header } }) as unknown as EncodingNegotiator;
    accepted = negotiator.encodings(ENCODINGS, { preferred: ENCODINGS }) as Encoding[];
    acceptedEncodings.set(header, accepted);
  }
  return accepted;
}

/** The status, headers and body answering `req` from `page`. */
function answerFor(req: IncomingMessage, page: CachedPage) {
  let chosen = page.identity;
  for (const encoding of encodingsAccepted(req.headers["accept-encoding"])) {
    const candidate = page[encoding];
    if (candidate) {
      chosen = candidate;
      break;
    }
  }
  if (fresh(req.headers, { etag: chosen.etag })) return { status: 304, headers: chosen.notModified, body: undefined };
  return { status: 200, headers: chosen.ok, body: req.method === "HEAD" ? undefined : chosen.body };
}

export function createPageCache(options: PageCacheOptions): PageCache {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxBodyBytes = options.maxBodyBytes ?? 2 * 1024 * 1024;
  const pages = new LRUCache<string, CachedPage>({
    max: options.maxEntries ?? 500,
    maxSize: maxBytes,
    sizeCalculation: (page, key) => page.size + key.length,
  });
  /** GETs respond() missed that the cache may keep, by request, for capture. */
  const pending = new WeakMap<IncomingMessage, string>();
  let seenVersion: number | string | undefined;

  const keyOf = (req: IncomingMessage): string | null => {
    const version = options.version();
    if (version !== seenVersion) {
      // Content changed: every entry is now unreachable, so the memory is given back at once.
      seenVersion = version;
      pages.clear();
    }
    return pageCacheKey(req, version);
  };

  /**
   * Renders under way, by key, each settled when its response is over (stored or not).
   * After a content write every page misses at once: without this, each visitor of a
   * popular page would render it again until the first render is stored.
   */
  const rendering = new Map<string, Promise<void>>();

  const answerFrom = (page: CachedPage, req: IncomingMessage, res: ServerResponse, extraHeaders?: FlatHeaders) => {
    const { status, headers, body } = answerFor(req, page);
    res.writeHead(status, extraHeaders ? [...headers, ...extraHeaders] : headers);
    res.end(body);
    return { status, contentType: page.contentType };
  };

  /**
   * The request renders the page: capture keeps it, and later misses of the key wait for
   * it. A visitor who left while waiting (its response already closed) renders for
   * nobody, and its render may never be kept: later misses must not wait for it, or
   * they would wait until the next content write.
   */
  const renderFor = (req: IncomingMessage, res: ServerResponse, key: string): undefined => {
    pending.set(req, key);
    if (!rendering.has(key) && !res.closed) {
      const render = new Promise<void>((settle) => {
        // finished() also calls back for a response that closes before it is asked.
        finished(res, () => {
          if (rendering.get(key) === render) rendering.delete(key);
          settle();
        });
      });
      rendering.set(key, render);
    }
    return undefined;
  };

  /**
   * A request waits for at most this many renders of its page. A render a content write
   * overtook is not kept; the next may be under way at the new version, but under a
   * write every second a request could otherwise wait for ever: past the last wait it
   * renders the page itself.
   */
  const MAX_WAITS = 2;

  const lookUp = (
    req: IncomingMessage,
    res: ServerResponse,
    extraHeaders: FlatHeaders | undefined,
    waitsLeft: number,
  ): ServedPage | undefined | Promise<ServedPage | undefined> => {
    const key = keyOf(req);
    if (key === null) return undefined;
    const page = pages.get(key);
    if (page) return answerFrom(page, req, res, extraHeaders);
    // HEAD renders no body (entry.server.tsx): nothing to keep.
    if (req.method !== "GET") return undefined;
    const underWay = rendering.get(key);
    if (!underWay || waitsLeft === 0) return renderFor(req, res, key);
    return underWay.then(() => lookUp(req, res, extraHeaders, waitsLeft - 1));
  };

  const respond: PageCache["respond"] = (req, res, extraHeaders) => lookUp(req, res, extraHeaders, MAX_WAITS);

  /** Stores a rendered page (unless a concurrent render of it was stored first) and answers from the entry. */
  const storeAndAnswer = async (
    key: string,
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    nonce: string,
  ) => {
    let page = pages.peek(key);
    if (!page) {
      try {
        page = await pageFrom(res.getHeaders(), body, nonce);
      } catch {
        // Never expected of zlib on a buffer; the visitor still gets the page as rendered.
        res.end(body);
        return;
      }
      // A render that a content change overtook is answered but not kept; neither is a page
      // larger than the whole cache (lru-cache refuses it).
      if (key.startsWith(`${seenVersion}\n`) && !pages.has(key)) pages.set(key, page);
    }
    const answer = answerFor(req, page);
    for (let index = 0; index < answer.headers.length; index += 2) {
      res.setHeader(answer.headers[index] as string, answer.headers[index + 1] as string | string[]);
    }
    res.setHeader(PAGE_CACHE_HEADER, "miss");
    res.statusCode = answer.status;
    res.end(answer.body);
  };

  const capture: RequestHandler = (req, res, next) => {
    const key = pending.get(req);
    if (key !== undefined) {
      pending.delete(req);
      captureResponse(res, {
        maxBytes: maxBodyBytes,
        holds: () => isStorableResponse(res.statusCode, res.getHeaders(), res.locals.cspNonce),
        onComplete: (body) => void storeAndAnswer(key, req, res, body, res.locals.cspNonce as string),
      });
    }
    next();
  };

  return { respond, capture };
}
