import { z } from "zod";
import { holdsNulCharacter, MAX_INTEGER_COLUMN } from "../validation.ts";
import type { ColumnKind } from "./tables.ts";

/**
 * One encoding of every value, whichever database it comes from, so that an export
 * made on SQLite and one made on PostgreSQL of the same data are the same bytes:
 * booleans as true/false (SQLite stores 0/1), timestamps as ISO-8601 UTC with
 * milliseconds, JSON columns as JSON with object keys sorted (jsonb reorders keys),
 * integers and bigints as numbers.
 */

export class ValueError extends Error {
  override name = "ValueError";
}

const SQLITE_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/;

/** A database value as it is written to an export or a backup's data file. */
export function encodeValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case "text":
      if (typeof value !== "string") throw new ValueError(`expected text, got ${typeof value}`);
      return value;
    case "integer":
    case "bigint": {
      const number = typeof value === "bigint" ? Number(value) : value;
      if (typeof number !== "number" || !Number.isSafeInteger(number)) {
        throw new ValueError(`expected an integer, got ${String(value)}`);
      }
      return number;
    }
    case "boolean":
      if (typeof value === "boolean") return value;
      if (value === 0 || value === 1) return value === 1;
      throw new ValueError(`expected a boolean, got ${String(value)}`);
    case "timestamp": {
      // SQLite's own "YYYY-MM-DD HH:MM:SS" (CURRENT_TIMESTAMP) is UTC, not local time.
      const text = typeof value === "string" && SQLITE_DATETIME.test(value) ? `${value.replace(" ", "T")}Z` : value;
      const date = text instanceof Date ? text : new Date(text as string | number);
      if (Number.isNaN(date.getTime())) throw new ValueError(`expected a timestamp, got ${String(value)}`);
      return date.toISOString();
    }
    case "json":
      return sortKeys(typeof value === "string" ? JSON.parse(value) : value);
  }
}

/** An exported value as the parameter that writes it (both drivers take these). */
export function decodeValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null) return null;
  // JSON columns are written as their text: jsonb casts it, SQLite stores it.
  if (kind === "json") return JSON.stringify(value);
  return value;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, item]) => [key, sortKeys(item)]));
  }
  return value;
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const NO_NUL = "must not contain a NUL character (U+0000), which PostgreSQL cannot store";
const SMALLEST_INTEGER_COLUMN = -MAX_INTEGER_COLUMN - 1;

/**
 * What a file's values must be for both databases to take them as they are: a file
 * imported into SQLite must export again and move to PostgreSQL unchanged.
 */
const KIND_SCHEMAS: Record<ColumnKind, z.ZodType> = {
  text: z
    .string({ message: "must be a string or null" })
    .refine((value) => !value.includes("\u0000"), { message: NO_NUL })
    .nullable(),
  integer: z
    .number({ message: "must be an integer or null" })
    .int({ message: "must be an integer" })
    .min(SMALLEST_INTEGER_COLUMN, { message: `must be an integer from ${SMALLEST_INTEGER_COLUMN}` })
    .max(MAX_INTEGER_COLUMN, { message: `must be an integer up to ${MAX_INTEGER_COLUMN}` })
    .nullable(),
  bigint: z.number({ message: "must be an integer or null" }).int({ message: "must be an integer" }).nullable(),
  boolean: z.boolean({ message: "must be true, false or null" }).nullable(),
  timestamp: z
    .string({ message: "must be a timestamp (YYYY-MM-DDTHH:MM:SS.sssZ) or null" })
    .regex(ISO_TIMESTAMP, { message: "must be a timestamp in UTC, as YYYY-MM-DDTHH:MM:SS.sssZ" })
    // 2024-13-45T99:99:99.999Z has the shape of one and names no moment.
    .refine(
      (value) => {
        const time = Date.parse(value);
        return !Number.isNaN(time) && new Date(time).toISOString() === value;
      },
      { message: "must be a date and time that exists" },
    )
    .nullable(),
  json: z
    .union([z.record(z.string(), z.unknown()), z.array(z.unknown())], {
      message: "must be a JSON object or array, or null",
    })
    .refine((value) => !holdsNulCharacter(value), { message: NO_NUL })
    .nullable(),
};

/** Checks a row read from a file; returns a message naming the first bad column, or null. */
export function checkRow(columns: readonly string[], kinds: readonly ColumnKind[], row: unknown): string | null {
  if (!Array.isArray(row)) return "a row must be a JSON array of values";
  if (row.length !== columns.length) return `a row must have ${columns.length} values, this one has ${row.length}`;
  for (let index = 0; index < columns.length; index++) {
    const result = KIND_SCHEMAS[kinds[index] as ColumnKind].safeParse(row[index]);
    if (!result.success) return `column "${columns[index]}" ${result.error.issues[0]?.message ?? "is invalid"}`;
  }
  return null;
}
