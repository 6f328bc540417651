import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { z } from "zod";
import { newerSchemaMessage } from "./schema-version.ts";
import { type ColumnKind, TABLES, type TableSpec, tableSpec } from "./tables.ts";
import { checkRow, decodeValue } from "./values.ts";

/**
 * The data file of an export (and of a PostgreSQL backup): JSON Lines, written and read
 * a line at a time so 100,000 subscribers never make one giant string. The layout is
 * documented in docs/data-format.md: a header line, then per table a table line and
 * one line per row (an array of values in the table line's column order), then an end
 * line with the totals, so a truncated file is recognised.
 */

export const DATA_FORMAT = "bastion-export";
export const DATA_FORMAT_VERSION = 1;

export interface DataHeader {
  format: typeof DATA_FORMAT;
  version: typeof DATA_FORMAT_VERSION;
  exportedAt: string;
  appVersion: string;
  schemaVersion: string;
}

/** One table to write: its rows come encoded (values.ts), in batches. */
export interface TableDump {
  spec: TableSpec;
  columns: readonly string[];
  count: number;
  batches: AsyncIterable<unknown[][]>;
}

export class DataFileError extends Error {
  override name = "DataFileError";
}

/**
 * Writes the header, every table and the end line; returns the totals. The file is
 * written under a temporary name and renamed once complete: a failed export leaves no
 * file at `file` (one that stops short is refused on import anyway, by its end line).
 */
export async function writeDataFile(
  file: string,
  header: DataHeader,
  tables: AsyncIterable<TableDump>,
  onRows: (table: string, rows: number) => void = () => {},
): Promise<{ tables: number; rows: number }> {
  const partial = `${file}.partial`;
  const stream = createWriteStream(partial);
  const write = async (text: string) => {
    if (!stream.write(text)) await once(stream, "drain");
  };
  let tableCount = 0;
  let rowCount = 0;
  let complete = false;
  try {
    await write(`${JSON.stringify(header)}\n`);
    for await (const dump of tables) {
      await write(`${JSON.stringify({ table: dump.spec.name, columns: dump.columns, rows: dump.count })}\n`);
      let written = 0;
      for await (const batch of dump.batches) {
        await write(batch.map((row) => `${JSON.stringify(row)}\n`).join(""));
        written += batch.length;
        onRows(dump.spec.name, batch.length);
      }
      // Read in the same snapshot as the count, so a difference is a fault, not a race.
      if (written !== dump.count) throw new Error(`${dump.spec.name}: counted ${dump.count} rows, read ${written}`);
      tableCount++;
      rowCount += written;
    }
    await write(`${JSON.stringify({ end: true, tables: tableCount, rows: rowCount })}\n`);
    complete = true;
  } finally {
    stream.end();
    await once(stream, "close");
    if (complete) await rename(partial, file);
    else await rm(partial, { force: true });
  }
  return { tables: tableCount, rows: rowCount };
}

const headerSchema = z.object({
  format: z.string(),
  version: z.number(),
  exportedAt: z.string().optional(),
  appVersion: z.string().optional(),
  schemaVersion: z.string({ message: "the header has no schemaVersion" }),
});
const tableLineSchema = z.object({
  table: z.string(),
  columns: z.array(z.string()).min(1),
  rows: z.number().int().min(0),
});
const endLineSchema = z.object({ end: z.literal(true), tables: z.number().int(), rows: z.number().int() });

export interface TableStart {
  spec: TableSpec;
  columns: string[];
  count: number;
}

export interface RowPlace {
  line: number;
  row: number;
}

export interface ReadHandlers {
  /** Which tables the file may hold (an export holds the exported ones, a backup all). */
  allowed: (spec: TableSpec) => boolean;
  onHeader?: (header: z.infer<typeof headerSchema>) => Promise<void> | void;
  onTable?: (table: TableStart) => Promise<void> | void;
  /**
   * Rows decoded to the values that write them, `batchSize` at most at a time, with
   * where each came from: its line in the file and its number in its table (from 1).
   */
  onRows?: (table: TableStart, rows: unknown[][], places: RowPlace[]) => Promise<void> | void;
  batchSize?: number;
}

/**
 * The lines of a file, split at "\n" alone, as JSON Lines prescribes. Not node:readline:
 * it also ends a line at a lone "\r" and at U+2028 and U+2029, which JSON.stringify
 * leaves unescaped inside strings, so a title holding a line separator would cut its
 * row in two.
 */
async function* readLines(file: string): AsyncGenerator<string> {
  let pending: string[] = [];
  for await (const chunk of createReadStream(file, { encoding: "utf8" })) {
    const parts = (chunk as string).split("\n");
    if (parts.length === 1) {
      pending.push(parts[0]!);
      continue;
    }
    yield pending.join("") + parts[0];
    for (let index = 1; index < parts.length - 1; index++) yield parts[index]!;
    pending = [parts.at(-1)!];
  }
  const last = pending.join("");
  if (last !== "") yield last;
}

/** Reads and checks a data file line by line; any fault throws a DataFileError naming the line. */
export async function readDataFile(
  file: string,
  handlers: ReadHandlers,
): Promise<{ schemaVersion: string; tables: Map<string, number> }> {
  const lines = readLines(file);
  const batchSize = handlers.batchSize ?? 500;
  const counts = new Map<string, number>();
  let lineNumber = 0;
  const fail = (message: string): never => {
    throw new DataFileError(`${file}, line ${lineNumber}: ${message}`);
  };
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return fail("not valid JSON");
    }
  };

  let schemaVersion: string | undefined;
  let current: (TableStart & { kinds: ColumnKind[]; seen: number; batch: unknown[][]; places: RowPlace[] }) | undefined;
  let lastIndex = -1;
  let ended = false;
  const flush = async () => {
    if (current && current.batch.length > 0) {
      const { batch: rows, places } = current;
      current.batch = [];
      current.places = [];
      await handlers.onRows?.(current, rows, places);
    }
  };

  for await (const text of lines) {
    lineNumber++;
    if (text.trim() === "") continue;
    if (ended) fail("there is more after the end line");
    const value = parse(text);
    if (schemaVersion === undefined) {
      const header = headerSchema.safeParse(value);
      if (!header.success || header.data.format !== DATA_FORMAT) {
        throw new DataFileError(
          `${file} is not a Bastion export file (its first line is not a "${DATA_FORMAT}" header).`,
        );
      }
      if (header.data.version !== DATA_FORMAT_VERSION) {
        throw new DataFileError(
          `${file} has format version ${header.data.version}; this installation reads version ${DATA_FORMAT_VERSION}. Upgrade Bastion first.`,
        );
      }
      const newer = newerSchemaMessage("export file", header.data.schemaVersion);
      if (newer) throw new DataFileError(newer);
      schemaVersion = header.data.schemaVersion;
      await handlers.onHeader?.(header.data);
      continue;
    }
    if (current && current.seen < current.count) {
      const problem = checkRow(current.columns, current.kinds, value);
      if (problem) fail(`table "${current.spec.name}", row ${current.seen + 1}: ${problem}`);
      current.batch.push((value as unknown[]).map((item, index) => decodeValue(current!.kinds[index]!, item)));
      current.seen++;
      current.places.push({ line: lineNumber, row: current.seen });
      if (current.batch.length >= batchSize) await flush();
      continue;
    }
    await flush();
    if (value !== null && typeof value === "object" && "end" in value) {
      const end = endLineSchema.safeParse(value);
      if (!end.success) fail("a malformed end line");
      const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
      if (end.data!.tables !== counts.size || end.data!.rows !== total) {
        fail(
          `the end line counts ${end.data!.tables} tables and ${end.data!.rows} rows; the file holds ${counts.size} and ${total}`,
        );
      }
      ended = true;
      continue;
    }
    const line = tableLineSchema.safeParse(value);
    if (!line.success) fail('expected a table line ({"table", "columns", "rows"}) or the end line');
    const { table: name, columns, rows } = line.data!;
    const spec = tableSpec(name);
    if (!spec) fail(`unknown table "${name}"`);
    if (!handlers.allowed(spec!)) fail(`the table "${name}" does not belong in this file`);
    const index = TABLES.indexOf(spec!);
    if (index <= lastIndex) fail(`the table "${name}" is out of order or repeated (see docs/data-format.md)`);
    lastIndex = index;
    const unknown = columns.find((column) => !(column in spec!.columns));
    if (unknown) fail(`the table "${name}" has no column "${unknown}" in this version of Bastion`);
    if (new Set(columns).size !== columns.length) fail(`the table "${name}" names a column twice`);
    const missingKey = spec!.key.find((column) => !columns.includes(column));
    if (missingKey) fail(`the table "${name}" lacks its key column "${missingKey}"`);
    current = {
      spec: spec!,
      columns,
      count: rows,
      kinds: columns.map((c) => spec!.columns[c]!),
      seen: 0,
      batch: [],
      places: [],
    };
    counts.set(name, rows);
    await handlers.onTable?.(current);
  }
  if (schemaVersion === undefined) throw new DataFileError(`${file} is empty: it is not a Bastion export file.`);
  if (current && current.seen < current.count) {
    fail(
      `the file ends inside the table "${current.spec.name}" (${current.seen} of ${current.count} rows): it is truncated`,
    );
  }
  await flush();
  if (!ended) fail("the file has no end line: it is truncated");
  return { schemaVersion, tables: counts };
}
