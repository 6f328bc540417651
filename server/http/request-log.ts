import type { RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import type { Logger } from "../logger.ts";
import type { TrustFunction } from "./client-address.ts";
import { assignRequestId } from "./request-id.ts";

/**
 * One log line per request: method, path, status and duration in milliseconds. Every
 * line logged through req.log, this one included, carries the request's id as `reqId`
 * (server/http/request-id.ts).
 */
export function logRequests(logger: Logger, trust: TrustFunction): RequestHandler {
  return pinoHttp({
    logger,
    quietReqLogger: true,
    wrapSerializers: false,
    genReqId: (req, res) => assignRequestId(req, res, trust),
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split("?")[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customAttributeKeys: { responseTime: "durationMs" },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
    customSuccessMessage: (req, res) => `${req.method} ${req.url?.split("?")[0]} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${req.url?.split("?")[0]} ${res.statusCode}`,
  }) as unknown as RequestHandler;
}
