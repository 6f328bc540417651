import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import helmet from "helmet";

/**
 * The security baseline of ARCHITECTURE.md. Scripts run only with this response's
 * nonce (no 'unsafe-inline'); styles may be inline because UI primitives set style
 * attributes, which cannot carry a nonce and cannot run code.
 */
export interface SecurityHeaderOptions {
  /** Extra origins images may come from (the S3 public URL, when media lives there). */
  imageOrigins: string[];
  /** Development only: Vite's hot reload talks over a WebSocket. */
  allowDevServer: boolean;
}

export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "camera=()",
  "geolocation=()",
  "gyroscope=()",
  "magnetometer=()",
  "microphone=()",
  "payment=()",
  "usb=()",
  "interest-cohort=()",
  "browsing-topics=()",
  // Passkeys (WebAuthn) are used on our own pages.
  "publickey-credentials-get=(self)",
  "publickey-credentials-create=(self)",
].join(", ");

/** Sent only over HTTPS (req.secure: TLS here, or X-Forwarded-Proto https behind TRUST_PROXY). */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/** Gives each response a fresh nonce in res.locals.cspNonce. Must run before the headers. */
export const assignCspNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = randomBytes(18).toString("base64");
  next();
};

export function securityHeaders(options: SecurityHeaderOptions): RequestHandler[] {
  const applyHelmet = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": [
          "'self'",
          (_req, res) => `'nonce-${(res as unknown as { locals: { cspNonce: string } }).locals.cspNonce}'`,
        ],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:", ...options.imageOrigins],
        "font-src": ["'self'", "data:"],
        "connect-src": options.allowDevServer ? ["'self'", "ws:", "wss:"] : ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
      },
    },
    // HSTS is only meaningful, and only sent, over HTTPS (below).
    strictTransportSecurity: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: "deny" },
  });

  const transportHeaders: RequestHandler = (req, res, next) => {
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    if (req.secure) res.setHeader("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    next();
  };

  return [applyHelmet, transportHeaders];
}
