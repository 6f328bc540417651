import pino, { type Logger } from "pino";

export type { Logger };

/**
 * JSON lines in production (one object per line, for log shippers); pretty and
 * coloured when a person watches a terminal in development.
 */
export function createLogger(options: { level: string; pretty?: boolean }): Logger {
  return pino({
    level: options.level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    transport: options.pretty ? { target: "pino-pretty", options: { ignore: "pid,hostname" } } : undefined,
  });
}
