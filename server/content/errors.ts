import type { z } from "zod";

/**
 * What the content services throw. Routes map them to HTTP statuses and the admin
 * forms show `fields` next to their inputs.
 */

/** Input that breaks a rule; `fields` maps each field to its message (the spec's texts where it has one). */
export class InvalidContentError extends Error {
  readonly fields: Readonly<Record<string, string>>;

  constructor(fields: Record<string, string>) {
    super(Object.values(fields).join(" ") || "Invalid input");
    this.name = "InvalidContentError";
    this.fields = fields;
  }
}

/** The item to change does not exist (any more). */
export class ContentNotFoundError extends Error {
  readonly entity: string;
  readonly id: string;

  constructor(entity: string, id: string) {
    super(`No ${entity} with id ${id}`);
    this.name = "ContentNotFoundError";
    this.entity = entity;
    this.id = id;
  }
}

/** Parses with zod, turning its issues into one InvalidContentError (first message per field). */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join(".") : "input";
    fields[field] ??= issue.message;
  }
  throw new InvalidContentError(fields);
}
