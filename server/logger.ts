import { createRequire } from "node:module";
import pino, { type Logger } from "pino";
import type { PrettyOptions, PrettyStream } from "pino-pretty";

export type { Logger };

/**
 * Readable, coloured lines when a person watches the server in a terminal; JSON lines
 * (one object per line, for log shippers) whenever the output goes elsewhere: a process
 * manager, a container's log, a pipe, a file. In production always JSON lines: a
 * container run with a terminal (`docker run -t`) or a server started in tmux still
 * feeds a log shipper.
 */
export function createLogger(options: { level: string; environment?: "production" | "development" | "test" }): Logger {
  const settings = { level: options.level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  const pretty = process.stdout.isTTY && options.environment !== "production" ? loadPinoPretty() : undefined;
  // Synchronous writes, in this thread: pino's default stdout stream and its transports
  // write asynchronously, and the process.exit() of a shutdown or a crash then loses or
  // reorders the last lines (the pending write is overtaken by the exit-time flush).
  // The log volume is small.
  if (pretty) return pino(settings, pretty({ destination: 1, sync: true, ignore: "pid,hostname" }));
  return pino(settings, pino.destination({ dest: 1, sync: true }));
}

/**
 * pino-pretty is a development dependency: an installation without them (`npm ci
 * --omit=dev`) logs JSON in a terminal too.
 */
function loadPinoPretty(): ((options: PrettyOptions) => PrettyStream) | undefined {
  try {
    return createRequire(import.meta.url)("pino-pretty");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") return undefined;
    throw error;
  }
}
