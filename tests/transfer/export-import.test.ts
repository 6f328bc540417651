import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataFileError } from "../../server/transfer/data-file.ts";
import { latestSchemaVersion } from "../../server/transfer/schema-version.ts";
import { EXPORTED_TABLES } from "../../server/transfer/tables.ts";
import { exportToFile, importFromFile, TransferRefused } from "../../server/transfer/transfer.ts";
import { createInstallation, type Installation, seedSite, snapshotTables } from "../backup/site-data.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";

const exported = new Set(EXPORTED_TABLES.map((spec) => spec.name));
const onlyExported = (name: string) => exported.has(name);
/** The file without its exportedAt, the one field that differs between two exports of the same data. */
const withoutExportedAt = (file: string) =>
  readFileSync(file, "utf8").replace(/"exportedAt":"[^"]*"/, '"exportedAt":""');

const folder = mkdtempSync(path.join(tmpdir(), "bastion-export-test-"));
let sequence = 0;
const newFile = () => path.join(folder, `export-${++sequence}.json`);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.each(TEST_DIALECTS)("export from %s", (from) => {
  let source: Installation;
  let first: string;
  const targets: Installation[] = [];
  const target = async () => {
    const created = await createInstallation(TEST_DIALECTS.find((d) => d !== from) ?? from);
    targets.push(created);
    return created;
  };

  beforeAll(async () => {
    source = await createInstallation(from);
    await seedSite(source);
    first = newFile();
    await exportToFile(source.handle, first);
  });

  afterAll(async () => {
    for (const created of targets) await created.destroy();
    await source?.destroy();
  });

  it("writes a versioned JSON Lines file: header, tables in order, rows, end line", () => {
    const lines = readFileSync(first, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[0]).toEqual({
      format: "bastion-export",
      version: 1,
      exportedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      appVersion: "0.1.0",
      schemaVersion: latestSchemaVersion(),
    });
    const tableLines = lines.filter((line) => "table" in line);
    expect(tableLines.map((line) => line.table)).toEqual(EXPORTED_TABLES.map((spec) => spec.name));
    const chapters = tableLines.find((line) => line.table === "chapters");
    expect(chapters.rows).toBe(1);
    const chapterRow = lines[lines.indexOf(chapters) + 1];
    expect(chapterRow[chapters.columns.indexOf("published")]).toBe(true);
    const media = tableLines.find((line) => line.table === "media");
    const variants = lines[lines.indexOf(media) + 1][media.columns.indexOf("variants")];
    expect(Array.isArray(variants) && Object.keys(variants[0])).toEqual(["bytes", "format", "height", "path", "width"]);
    const account = tableLines.find((line) => line.table === "account");
    expect(lines[lines.indexOf(account) + 1][account.columns.indexOf("password")]).toMatch(/\S{20,}/);
    expect(lines.at(-1)).toEqual({ end: true, tables: tableLines.length, rows: expect.any(Number) });
    expect(tableLines.map((line) => line.table)).not.toContain("session");
  });

  it("imports into the other database and exports again to the same bytes (but exportedAt)", async () => {
    const other = await target();
    const result = await importFromFile(other.handle, first, { force: false });
    expect(result.tables).toBe(EXPORTED_TABLES.length);
    expect(await snapshotTables(other.handle, onlyExported)).toEqual(await snapshotTables(source.handle, onlyExported));
    const second = newFile();
    await exportToFile(other.handle, second);
    expect(withoutExportedAt(second)).toBe(withoutExportedAt(first));
  });

  it("derives the subscribers' active periods from a file written before they were kept", async () => {
    const lines = readFileSync(first, "utf8").trimEnd().split("\n");
    const header = JSON.parse(lines[0] as string);
    const older = [JSON.stringify({ ...header, schemaVersion: "0007-subscriber-bounced-at" })];
    let tables = 0;
    let rows = 0;
    for (let index = 1; index < lines.length - 1; index++) {
      const table = JSON.parse(lines[index] as string);
      const body = lines.slice(index + 1, index + 1 + table.rows);
      index += table.rows;
      if (table.table === "newsletter_active_periods") continue;
      if (table.table === "newsletter_subscribers") {
        // The first subscriber confirmed on March 1st and is still active.
        const confirmed = JSON.parse(body[0] as string);
        confirmed[table.columns.indexOf("status")] = "active";
        confirmed[table.columns.indexOf("confirmed_at")] = "2026-03-01T00:00:00.000Z";
        body[0] = JSON.stringify(confirmed);
      }
      older.push(lines[index - table.rows] as string, ...body);
      tables += 1;
      rows += body.length;
    }
    older.push(JSON.stringify({ end: true, tables, rows }));
    const file = newFile();
    writeFileSync(file, `${older.join("\n")}\n`);

    const other = await target();
    await importFromFile(other.handle, file, { force: false });
    const periods = await other.handle.db
      .selectFrom("newsletter_active_periods")
      .select(["started_at", "ended_at"])
      .execute();
    expect(periods).toEqual([{ started_at: "2026-03-01T00:00:00.000Z", ended_at: null }]);
  });

  it("refuses a database that holds data, and replaces its content with --force", async () => {
    const other = await target();
    await seedSite(other);
    const before = await snapshotTables(other.handle);
    const refused = await importFromFile(other.handle, first, { force: false }).catch((error) => error);
    expect(refused).toBeInstanceOf(TransferRefused);
    expect(refused.message).toMatch(
      /^The database already holds data \(\d+ rows in user, .*\)\. Import into an empty database, or add --force to replace its content\.$/,
    );
    expect(await snapshotTables(other.handle)).toEqual(before);
    await importFromFile(other.handle, first, { force: true });
    expect(await snapshotTables(other.handle, onlyExported)).toEqual(await snapshotTables(source.handle, onlyExported));
  });

  it.each([
    {
      fault: "another format",
      edit: (lines: string[]) => ['{"format":"wordpress-export","version":1}', ...lines.slice(1)],
      message: (file: string) =>
        `${file} is not a Bastion export file (its first line is not a "bastion-export" header).`,
    },
    {
      fault: "a newer format version",
      edit: (lines: string[]) => [lines[0]!.replace('"version":1', '"version":2'), ...lines.slice(1)],
      message: (file: string) =>
        `${file} has format version 2; this installation reads version 1. Upgrade Bastion first.`,
    },
    {
      fault: "a newer schema",
      edit: (lines: string[]) => [
        lines[0]!.replace(/"schemaVersion":"[^"]+"/, '"schemaVersion":"9001-next"'),
        ...lines.slice(1),
      ],
      message: () =>
        `This export file was made by a newer version of Bastion (schema 9001-next); this installation has schema ${latestSchemaVersion()}. Upgrade Bastion first.`,
    },
    {
      fault: "a bad value",
      edit: (lines: string[]) => {
        const index = lines.findIndex((line) => line.startsWith('{"table":"chapters"'));
        const columns = JSON.parse(lines[index]!).columns as string[];
        const row = JSON.parse(lines[index + 1]!);
        row[columns.indexOf("published")] = "yes";
        return lines.map((line, at) => (at === index + 1 ? JSON.stringify(row) : line));
      },
      message: (file: string, lines: string[]) =>
        `${file}, line ${lines.findIndex((line) => line.includes('"yes"')) + 1}: table "chapters", row 1: column "published" must be true, false or null`,
    },
    {
      fault: "a missing end",
      edit: (lines: string[]) => lines.slice(0, -1),
      message: (file: string, lines: string[]) =>
        `${file}, line ${lines.length}: the file has no end line: it is truncated`,
    },
  ])("refuses $fault with a clear message and changes nothing", async ({ edit, message }) => {
    const other = await target();
    const before = await snapshotTables(other.handle);
    const lines = edit(readFileSync(first, "utf8").trimEnd().split("\n"));
    const file = newFile();
    writeFileSync(file, `${lines.join("\n")}\n`);
    const refused = await importFromFile(other.handle, file, { force: true }).catch((error) => error);
    expect(refused).toBeInstanceOf(DataFileError);
    expect(refused.message).toBe(message(file, lines));
    expect(await snapshotTables(other.handle)).toEqual(before);
  });

  it.each([
    {
      fault: "a row naming a chapter that does not exist",
      table: "chapter_sections",
      edit: (row: unknown[], columns: string[]) => [
        [
          ...row.slice(0, columns.indexOf("chapter_id")),
          "chapter-gone",
          ...row.slice(columns.indexOf("chapter_id") + 1),
        ],
      ],
      row: 1,
    },
    {
      fault: "a key given twice",
      table: "chapters",
      edit: (row: unknown[]) => [row, row],
      row: 2,
    },
  ])("names the line of $fault, which the database refuses, and changes nothing", async ({ table, edit, row }) => {
    const other = await target();
    const before = await snapshotTables(other.handle);
    const lines = readFileSync(first, "utf8").trimEnd().split("\n");
    const index = lines.findIndex((line) => line.startsWith(`{"table":"${table}"`));
    const header = JSON.parse(lines[index]!);
    const rows = edit(JSON.parse(lines[index + 1]!), header.columns);
    const end = JSON.parse(lines.at(-1)!);
    const edited = [
      ...lines.slice(0, index),
      JSON.stringify({ ...header, rows: header.rows - 1 + rows.length }),
      ...rows.map((values) => JSON.stringify(values)),
      ...lines.slice(index + 2, -1),
      JSON.stringify({ ...end, rows: end.rows - 1 + rows.length }),
    ];
    const file = newFile();
    writeFileSync(file, `${edited.join("\n")}\n`);
    const refused = await importFromFile(other.handle, file, { force: true }).catch((error) => error);
    expect(refused).toBeInstanceOf(DataFileError);
    expect(refused.message).toMatch(
      new RegExp(`^${file}, line ${index + 1 + row}: table "${table}", row ${row}: the database refused it \\(.+\\)$`),
    );
    expect(await snapshotTables(other.handle)).toEqual(before);
  });
});

describe.each(TEST_DIALECTS)("an export from a blank %s database", (dialect) => {
  it("is refused as having nothing to export, not sent to db:migrate", async () => {
    const blank = await createInstallation(dialect, false);
    try {
      const file = newFile();
      const refused = await exportToFile(blank.handle, file).catch((error) => error);
      expect(refused).toBeInstanceOf(TransferRefused);
      expect(refused.message).toBe("The database has no schema yet: there is nothing to export.");
      expect(existsSync(file)).toBe(false);
    } finally {
      await blank.destroy();
    }
  });
});

describe("an export that fails", () => {
  it("leaves no file behind, complete or partial", async () => {
    const site = await createInstallation("sqlite");
    try {
      await seedSite(site);
      // A value no export can encode (SQLite stores any text in a timestamp column).
      await sql`update chapters set created_at = 'not a time'`.execute(site.handle.db);
      const file = newFile();
      const refused = await exportToFile(site.handle, file).catch((error) => error);
      expect(refused).toBeInstanceOf(Error);
      expect(refused.message).toMatch(/chapters\.created_at: expected a timestamp/);
      expect(existsSync(file)).toBe(false);
      expect(existsSync(`${file}.partial`)).toBe(false);
    } finally {
      await site.destroy();
    }
  });
});
