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

/** Whether a request's body is a form (urlencoded or multipart), by its Content-Type. */
export function isFormBody(request: Request): boolean {
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  return type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data");
}
