import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { type ColumnKind, EXPORTED_TABLES, MIGRATION_TABLES, TABLES } from "../../server/transfer/tables.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";

/**
 * The declared types each kind is created with by the migrations. SQLite keeps the
 * declared name: Better Auth's booleans are "integer" and its dates "date" there.
 */
const DECLARED_TYPES: Record<"sqlite" | "postgres", Record<ColumnKind, string[]>> = {
  postgres: {
    text: ["text"],
    integer: ["int4"],
    bigint: ["int8"],
    boolean: ["bool"],
    timestamp: ["timestamptz"],
    json: ["jsonb"],
  },
  sqlite: {
    text: ["text"],
    integer: ["integer"],
    bigint: ["bigint"],
    boolean: ["boolean", "integer"],
    timestamp: ["text", "date"],
    json: ["text"],
  },
};

describe.each(TEST_DIALECTS)("the list of tables (server/transfer/tables.ts) on %s", (dialect) => {
  let migrated: MigratedDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    migrated = await migratedDatabase(dialect);
    handle = migrated.handle;
  });

  afterAll(async () => {
    await migrated?.close();
  });

  it("names every table the migrations create, with exactly its columns", async () => {
    const tables = await handle.db.introspection.getTables({ withInternalKyselyTables: true });
    const inDatabase = tables
      .map((table) => table.name)
      .filter((name) => !(MIGRATION_TABLES as readonly string[]).includes(name))
      .sort();
    expect(TABLES.map((spec) => spec.name).sort()).toEqual(inDatabase);
    for (const spec of TABLES) {
      const columns = tables.find((table) => table.name === spec.name)!.columns.map((column) => column.name);
      expect(Object.keys(spec.columns).sort(), spec.name).toEqual(columns.sort());
    }
  });

  it("gives every column a kind that matches its declared type", async () => {
    const tables = await handle.db.introspection.getTables();
    for (const spec of TABLES) {
      const columns = tables.find((table) => table.name === spec.name)!.columns;
      for (const column of columns) {
        const kind = spec.columns[column.name]!;
        expect(DECLARED_TYPES[dialect][kind], `${spec.name}.${column.name} (${kind})`).toContain(
          column.dataType.toLowerCase(),
        );
      }
    }
  });

  it("lists each table after the tables it references", async () => {
    const position = new Map(TABLES.map((spec, index) => [spec.name, index]));
    // Read the foreign keys from the database itself.
    const keys = await foreignKeys(handle);
    expect(keys.length).toBeGreaterThan(10);
    for (const { child, parent } of keys) {
      if (child === parent) continue;
      expect(position.get(parent)!, `${child} references ${parent}`).toBeLessThan(position.get(child)!);
    }
  });

  it("exports the site's data and leaves out sessions, tokens, counters and queues", () => {
    expect(EXPORTED_TABLES.map((spec) => spec.name)).toContain("newsletter_subscribers");
    expect(EXPORTED_TABLES.map((spec) => spec.name)).toContain("account");
    const left = TABLES.filter((spec) => !spec.exported).map((spec) => spec.name);
    expect(left.sort()).toEqual(
      [
        "account_invitations",
        "email_outbox",
        "jwks",
        "rateLimit",
        "request_limits",
        "session",
        "sms_outbox",
        "verification",
      ].sort(),
    );
  });
});

async function foreignKeys(handle: DatabaseHandle): Promise<{ child: string; parent: string }[]> {
  if (handle.dialect === "postgres") {
    const result = await sql<{ child: string; parent: string }>`
      select cl.relname as child, pcl.relname as parent
      from pg_constraint c
      join pg_class cl on cl.oid = c.conrelid
      join pg_class pcl on pcl.oid = c.confrelid
      join pg_namespace n on n.oid = cl.relnamespace
      where c.contype = 'f' and n.nspname = current_schema()`.execute(handle.db);
    return result.rows;
  }
  const result = await sql<{ child: string; parent: string }>`
    select m.name as child, f."table" as parent
    from sqlite_master m, pragma_foreign_key_list(m.name) f
    where m.type = 'table'`.execute(handle.db);
  return result.rows;
}
