import { STATUS_CODES } from "node:http";
import type { ErrorRequestHandler } from "express";

const SERVER_ERROR_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Something went wrong · Bastion</title></head>
<body>
<main>
<h1>Something went wrong</h1>
<p>An unexpected error occurred. Please try again later.</p>
<p><a href="/">Return to Home</a></p>
</main>
</body>
</html>`;

/**
 * Last resort for errors outside the React tree (which has its own error page).
 * Visitors get a friendly page; the error and its stack go to the log only.
 * Client errors raised by Express itself (a malformed URL, say) keep their 4xx.
 */
export const handleUncaughtErrors: ErrorRequestHandler = (error, req, res, next) => {
  const status = typeof error?.status === "number" && error.status >= 400 && error.status < 500 ? error.status : 500;
  if (status === 500) req.log?.error({ err: error }, "Unhandled error");
  else req.log?.warn({ err: error }, "Bad request");
  if (res.headersSent) return next(error);
  res.status(status);
  if (status === 500) res.type("html").send(SERVER_ERROR_PAGE);
  else res.type("text/plain").send(STATUS_CODES[status] ?? "Bad Request");
};
