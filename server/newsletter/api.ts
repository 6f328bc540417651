import { z } from "zod";
import { answerNoSoonerThan, runAfterAnswerMs } from "../answer-floor.ts";
import { CLIENT_IP_HEADER } from "../auth/auth.ts";
import { Invalid } from "../errors.ts";
import { currentHits, hitLimit, limitedAddress } from "../request-limits.ts";
import type { AppServices } from "../services.ts";
import { holdsNulCharacter, isFormBody, NUL_CHARACTER_MESSAGE, readJsonObject } from "../validation.ts";
import { recordBounce } from "./bounces.ts";
import {
  type ConsentSource,
  confirmSubscription,
  subscribe,
  UNSUBSCRIBED_MESSAGE,
  unsubscribeWithToken,
} from "./subscribers.ts";
import { bounceWebhookSecret, safeEqual } from "./tokens.ts";

/**
 * The HTTP side of the newsletter API (app/routes/api/newsletter-*.ts call these):
 * every input checked with zod, bad input → 400 JSON with a clear message.
 */

export type NewsletterServices = Pick<AppServices, "db" | "config" | "secret" | "mail" | "logger">;

const SUBSCRIBE_SUCCESS_MESSAGE = "Please check your email to confirm your subscription";
const INVALID_EMAIL_MESSAGE = "Please enter a valid email address";
export const BOUNCE_SECRET_HEADER = "x-bastion-webhook-secret";

const SUBSCRIBE_LIMITS = {
  perIp: { limit: 10, windowMs: 15 * 60 * 1000 },
  perAddress: { limit: 5, windowMs: 60 * 60 * 1000 },
};

const NO_STORE = { "Cache-Control": "no-store" };
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { ...NO_STORE, ...headers } });

const emailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((value) => value.toLowerCase());

/** The body as a plain object: JSON, or form fields. Unreadable → Invalid. */
async function readBody(request: Request): Promise<Record<string, unknown>> {
  if (!isFormBody(request)) return readJsonObject(request);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new Invalid({ body: "The form could not be read." });
  }
  if (holdsNulCharacter(form)) throw new Invalid({ body: NUL_CHARACTER_MESSAGE });
  return Object.fromEntries(form.entries());
}

export const clientIp = (request: Request) => request.headers.get(CLIENT_IP_HEADER)?.trim() || "unknown";

export type SubscribeAnswer =
  | { status: 200; code: "success"; message: string }
  | { status: 400; code: "invalid"; message: string }
  | { status: 429; code: "rate-limited"; message: string; retryAfterSeconds: number };

const subscribeBody = z.object({
  email: z.unknown().optional(),
  website: z.unknown().optional(),
});

/**
 * How long a successful subscription takes to answer, whatever the address's state. It
 * must exceed what a new address's work (its row, its confirmation email) takes on a
 * busy machine: at 120 ms, a CI run with browser tests on both cores answered new
 * addresses more slowly than active ones in 27 of 30 pairs. The same as a password
 * reset request's floor.
 */
export const SUBSCRIBE_ANSWER_FLOOR_MS = 250;

/** The subscribe logic shared by the form and the API; a success leaves at the floor. */
async function subscribeRequest(
  services: NewsletterServices,
  fields: Record<string, unknown>,
  source: ConsentSource,
  ip: string,
): Promise<SubscribeAnswer> {
  const startedAt = performance.now();
  const answer = await decideSubscription(services, fields, source, ip);
  if (answer.status === 200) await answerNoSoonerThan(startedAt, SUBSCRIBE_ANSWER_FLOOR_MS);
  return answer;
}

async function decideSubscription(
  services: NewsletterServices,
  fields: Record<string, unknown>,
  source: ConsentSource,
  ip: string,
): Promise<SubscribeAnswer> {
  const body = subscribeBody.parse(fields);
  const success = { status: 200, code: "success", message: SUBSCRIBE_SUCCESS_MESSAGE } as const;
  // The honeypot: bots fill every field. Dropped silently, answered like a success.
  if (typeof body.website === "string" ? body.website.trim() !== "" : body.website != null) return success;
  const email = emailSchema.safeParse(body.email);
  if (!email.success) return { status: 400, code: "invalid", message: INVALID_EMAIL_MESSAGE };
  for (const [key, rule] of [
    [`newsletter-subscribe:ip:${limitedAddress(ip)}`, SUBSCRIBE_LIMITS.perIp],
    [`newsletter-subscribe:email:${email.data}`, SUBSCRIBE_LIMITS.perAddress],
  ] as const) {
    const hit = await hitLimit(services.db, key, rule.limit, rule.windowMs);
    if (!hit.allowed) {
      const minutes = Math.ceil(hit.retryAfterSeconds / 60);
      return {
        status: 429,
        code: "rate-limited",
        message: `Too many subscription attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        retryAfterSeconds: hit.retryAfterSeconds,
      };
    }
  }
  const outcome = await subscribe(services.db, services, { email: email.data, source, ip });
  if (outcome === "pending" || outcome === "resent") services.mail.wake(runAfterAnswerMs(SUBSCRIBE_ANSWER_FLOOR_MS));
  return success;
}

/** POST /api/newsletter/subscribe: JSON {email} → {success, message}; a form post → 303 back home. */
export async function handleSubscribe(services: NewsletterServices, request: Request): Promise<Response> {
  const form = isFormBody(request);
  let answer: SubscribeAnswer;
  try {
    answer = await subscribeRequest(services, await readBody(request), form ? "form" : "api", clientIp(request));
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    answer = { status: 400, code: "invalid", message: error.message };
  }
  if (form) {
    return new Response(null, {
      status: 303,
      headers: { ...NO_STORE, Location: `/?${new URLSearchParams({ newsletter: answer.code })}#newsletter` },
    });
  }
  const headers: Record<string, string> =
    answer.status === 429 ? { "Retry-After": String(answer.retryAfterSeconds) } : {};
  return json({ success: answer.status === 200, message: answer.message }, answer.status, headers);
}

const tokenSchema = z.string().trim().min(1).max(500);
const MISSING_TOKEN = "A token is required.";

/**
 * POST /api/newsletter/confirm {token} (the token may also stand in the query): {success:
 * true} or 400 {error}. Repeating it changes nothing. Only a POST gets here: opening a
 * link (GET, HEAD) must not confirm, since mail scanners open every link.
 */
export async function handleConfirm(services: NewsletterServices, request: Request): Promise<Response> {
  let raw: unknown;
  try {
    raw = (await readBody(request)).token ?? new URL(request.url).searchParams.get("token");
  } catch (error) {
    if (error instanceof Invalid) return json({ success: false, error: error.message }, 400);
    throw error;
  }
  const token = tokenSchema.safeParse(raw);
  if (!token.success) return json({ success: false, error: MISSING_TOKEN }, 400);
  const result = await confirmSubscription(services.db, services, token.data);
  if (!result.success) return json(result, 400);
  if (!result.alreadyConfirmed) services.mail.wake();
  return json({ success: true });
}

/**
 * POST /api/newsletter/unsubscribe: JSON {token} → {success, message}; the RFC 8058
 * one-click POST (form body `List-Unsubscribe=One-Click`, token in the query) too.
 */
export async function handleUnsubscribe(services: NewsletterServices, request: Request): Promise<Response> {
  let body: Record<string, unknown>;
  try {
    body = await readBody(request);
  } catch (error) {
    if (error instanceof Invalid) return json({ success: false, message: error.message }, 400);
    throw error;
  }
  const token = tokenSchema.safeParse(body.token ?? new URL(request.url).searchParams.get("token"));
  if (!token.success) return json({ success: false, message: MISSING_TOKEN }, 400);
  const result = await unsubscribeWithToken(services.db, services.secret, token.data);
  if (!result.success) return json({ success: false, message: result.error }, 400);
  return json({ success: true, message: UNSUBSCRIBED_MESSAGE });
}

const bounceBody = z.object({
  email: emailSchema,
  type: z.enum(["hard", "soft", "complaint"]),
  reason: z.string().max(1000).optional().default(""),
});

/**
 * Wrong webhook secrets an address may send before its requests are refused for the
 * window: a provider with the right secret is never slowed, however many bounces it
 * reports; a guesser is stopped (the secret is 256 bits, so this is the baseline's limit
 * rather than the secret's defence).
 */
export const BOUNCE_SECRET_FAILURES = { limit: 10, windowMs: 15 * 60 * 1000 };

/** POST /api/newsletter/webhooks/bounce with the shared secret in x-bastion-webhook-secret. */
export async function handleBounceWebhook(services: NewsletterServices, request: Request): Promise<Response> {
  const failuresKey = `bounce-webhook-failures:${limitedAddress(clientIp(request))}`;
  const { limit, windowMs } = BOUNCE_SECRET_FAILURES;
  if ((await currentHits(services.db, failuresKey, windowMs)) >= limit) {
    return json({ success: false, error: "Too many requests with a wrong webhook secret." }, 429, {
      "Retry-After": String(windowMs / 1000),
    });
  }
  const given = request.headers.get(BOUNCE_SECRET_HEADER) ?? "";
  if (!safeEqual(given, bounceWebhookSecret(services.secret))) {
    await hitLimit(services.db, failuresKey, limit, windowMs);
    return json({ success: false, error: "Invalid webhook secret." }, 401);
  }
  let fields: Record<string, unknown>;
  try {
    fields = await readBody(request);
  } catch (error) {
    if (error instanceof Invalid) return json({ success: false, error: error.message }, 400);
    throw error;
  }
  const parsed = bounceBody.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return json({ success: false, error: `Invalid ${issue?.path.join(".") || "body"}: ${issue?.message}` }, 400);
  }
  const suppressed = await recordBounce(services.db, parsed.data);
  return json({ success: true, suppressed });
}
