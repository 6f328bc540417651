import type { ServerResponse } from "node:http";
import type { RequestHandler } from "express";

/**
 * Which answers a CDN (or any shared cache) may keep. Only the page cache's answers to
 * anonymous visitors say `public` (PAGE_CACHE_CONTROL in page-cache/rules.ts), and the
 * few resource routes and static files that set their own Cache-Control. Every other
 * answer — a page rendered for a signed-in visitor, admin and sign-in pages, data
 * requests, query strings, not-found pages, Better Auth's endpoints — would otherwise go
 * out without one, and a CDN may then cache it by its own heuristics: it is marked
 * private and not to be stored instead.
 */

export const PRIVATE_NO_STORE = "private, no-store";

/**
 * Adds `Cache-Control: private, no-store` to a response that has none when its head is
 * written. Deciding at writeHead (not on the way in) leaves the page cache free to
 * judge a rendered page storable, and to give it its public Cache-Control, first.
 */
export const privateUnlessDeclared: RequestHandler = (_req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadPrivately(this: ServerResponse, ...args: unknown[]) {
    if (!this.hasHeader("cache-control")) this.setHeader("Cache-Control", PRIVATE_NO_STORE);
    return (writeHead as (...all: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
  next();
};
