/**
 * The one error type of the domain. Services throw an AppError when a request cannot be
 * done as asked; describeError() is the one place that turns any error into an HTTP
 * status and a message for people (form actions and JSON routes both use it). Anything
 * else thrown is a bug or an outage: 500, with a message that leaks nothing.
 */

/** Where an error keeps the kinds it is (its class and the classes above it). */
const KINDS = Symbol.for("bastion.app-error.kinds");

export abstract class AppError extends Error {
  /** The class's kind; subclasses name their own. */
  static readonly kind: string = "AppError";
  abstract readonly status: number;
  readonly [KINDS]: readonly string[];

  constructor(message: string) {
    super(message);
    const kinds: string[] = [];
    for (let type = new.target as unknown as { kind?: string } | null; type?.kind; type = Object.getPrototypeOf(type)) {
      kinds.push(type.kind);
    }
    this[KINDS] = kinds;
  }

  /**
   * `instanceof` by kind rather than by class identity: the server bundle carries its
   * own copy of this module, and an error made by one copy must still be recognised by
   * the other (describeError would otherwise answer a 500).
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    const kinds = (value as { [KINDS]?: unknown } | null | undefined)?.[KINDS];
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof asks about (NotFound, Invalid, …).
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

/** The thing to read or change does not exist (any more). */
export class NotFound extends AppError {
  static override readonly kind = "NotFound";
  readonly status = 404;
  constructor(message = "Not found.") {
    super(message);
    this.name = "NotFound";
  }
}

/** The viewer may not do this. */
export class Forbidden extends AppError {
  static override readonly kind = "Forbidden";
  readonly status = 403;
  constructor(message = "You do not have permission to do this.") {
    super(message);
    this.name = "Forbidden";
  }
}

/** Input that breaks a rule; `fields` maps each field to its message (the spec's texts where it has one). */
export class Invalid extends AppError {
  static override readonly kind = "Invalid";
  readonly status = 400;
  readonly fields: Readonly<Record<string, string>>;

  constructor(fields: Record<string, string>, message?: string) {
    super(message ?? (Object.values(fields).join(" ") || "The input is not valid."));
    this.name = "Invalid";
    this.fields = fields;
  }
}

/** The request was made against a state that has changed (a stale revision), or would break a uniqueness rule. */
export class Conflict extends AppError {
  static override readonly kind = "Conflict";
  readonly status = 409;
  constructor(message: string) {
    super(message);
    this.name = "Conflict";
  }
}

/** The request's body (an uploaded file) is larger than allowed. */
export class TooLarge extends AppError {
  static override readonly kind = "TooLarge";
  readonly status = 413;
  constructor(message: string) {
    super(message);
    this.name = "TooLarge";
  }
}

/** Too many requests of this kind; try again after `retryAfterSeconds`. */
export class RateLimited extends AppError {
  static override readonly kind = "RateLimited";
  readonly status = 429;
  readonly retryAfterSeconds: number | undefined;

  constructor(message = "Too many requests. Please try again later.", retryAfterSeconds?: number) {
    super(message);
    this.name = "RateLimited";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** What any error means for the person who made the request. */
export interface ErrorDescription {
  status: number;
  message: string;
  fields: Readonly<Record<string, string>>;
  /** False for errors that are not an AppError: the caller logs them. */
  expected: boolean;
}

export const UNEXPECTED_ERROR_MESSAGE = "Something went wrong on our side. Please try again.";

export function describeError(error: unknown): ErrorDescription {
  if (error instanceof AppError) {
    return {
      status: error.status,
      message: error.message,
      fields: error instanceof Invalid ? error.fields : {},
      expected: true,
    };
  }
  return { status: 500, message: UNEXPECTED_ERROR_MESSAGE, fields: {}, expected: false };
}

/** A JSON API answer for an error: `{ error, fields? }` with its status (Retry-After when rate limited). */
export function errorResponse(error: unknown): Response {
  const { status, message, fields } = describeError(error);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (error instanceof RateLimited && error.retryAfterSeconds !== undefined) {
    headers.set("Retry-After", String(Math.ceil(error.retryAfterSeconds)));
  }
  const body = Object.keys(fields).length > 0 ? { error: message, fields } : { error: message };
  return Response.json(body, { status, headers });
}

/** The answer to a method an endpoint does not take (a GET on a POST-only API, say). */
export function methodNotAllowed(allow: string): Response {
  return Response.json(
    { error: "Method Not Allowed" },
    { status: 405, headers: { "Cache-Control": "no-store", Allow: allow } },
  );
}

/**
 * The action of a resource route that only answers reads (a feed, the sitemap, /api/me):
 * without one, React Router answers a POST or DELETE there with 405 and the body
 * "Unexpected Server Error".
 */
export const readOnlyAction = (): Response => methodNotAllowed("GET, HEAD");
