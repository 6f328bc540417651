import pino, { type Logger } from "pino";

export type { Logger };

/**
 * JSON lines in production (one object per line, for log shippers); pretty and
 * coloured when a person watches a terminal in development.
 */
export function createLogger(options: { level: string; pretty?: boolean }): Logger {
  const settings = { level: options.level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  if (options.pretty) {
    return pino({ ...settings, transport: { target: "pino-pretty", options: { ignore: "pid,hostname" } } });
  }
  // Synchronous writes: pino's default stdout stream writes asynchronously, and the
  // process.exit() of a shutdown or a crash then loses or reorders the last lines
  // (the pending write is overtaken by the exit-time flush). The log volume is small.
  return pino(settings, pino.destination({ dest: 1, sync: true }));
}
