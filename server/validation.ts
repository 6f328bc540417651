import type { z } from "zod";
import { Invalid } from "./errors.ts";

/**
 * Parses input with a zod schema, turning its issues into one `Invalid` that carries
 * the first message of each field (the one a form shows beside that field).
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join(".") : "input";
    fields[field] ??= issue.message;
  }
  throw new Invalid(fields);
}

/**
 * The largest number an `integer` column holds on PostgreSQL (SQLite's are wider). A
 * number from a request that a query compares with such a column stays within it:
 * beyond it, PostgreSQL fails the query as a server error.
 */
export const MAX_INTEGER_COLUMN = 2_147_483_647;

/** Whether a request's body is a form (urlencoded or multipart), by its Content-Type. */
export function isFormBody(request: Request): boolean {
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  return type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data");
}

/**
 * U+0000 has no place in any text the product keeps, and PostgreSQL's text type cannot
 * hold it (SQLite can): a request carrying one is refused where it is read, alike on
 * both databases, rather than failing in the database as a server error.
 */
export const NUL_CHARACTER_MESSAGE = "The request contains a NUL character (U+0000), which no field accepts.";

/**
 * Whether a value read from a request (text, a form, a file's name, parsed JSON) holds a
 * U+0000 anywhere, keys included. Walked with a stack of its own: a JSON body may nest
 * deeper than the call stack goes.
 */
export function holdsNulCharacter(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") {
      if (next.includes("\u0000")) return true;
    } else if (next instanceof File) {
      pending.push(next.name);
    } else if (next instanceof FormData || Array.isArray(next)) {
      for (const entry of next) pending.push(entry);
    } else if (next !== null && typeof next === "object") {
      for (const entry of Object.entries(next)) pending.push(entry);
    }
  }
  return false;
}

export const JSON_OBJECT_REQUIRED = "The request body must be a JSON object.";

/**
 * A request's JSON body as an object (an empty body reads as `{}`). Anything else, or a
 * NUL character anywhere in it, is refused as one `Invalid` whose message says why.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    const text = await request.text();
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new Invalid({ body: JSON_OBJECT_REQUIRED });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Invalid({ body: JSON_OBJECT_REQUIRED });
  if (holdsNulCharacter(value)) throw new Invalid({ body: NUL_CHARACTER_MESSAGE });
  return value as Record<string, unknown>;
}
