import type { Kysely } from "kysely";
import { afterAll, beforeAll, expect } from "vitest";
import { createPublishedContent, type LivePublishedContent } from "../../server/content/published.ts";
import type { ContentStore } from "../../server/content/store.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import type { Database } from "../../server/db/schema.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { AppError } from "../../server/errors.ts";
import { createLogger } from "../../server/logger.ts";
import { insertActor } from "../helpers/actor.ts";
import { createTestDatabase, type TestDatabase, type TestDialect } from "../helpers/databases.ts";

export const logger = createLogger({ level: "silent" });

export const ACTOR_ID = "user-content-editor";

export interface ContentFixture {
  testDb: TestDatabase;
  handle: DatabaseHandle;
  content: LivePublishedContent;
  /** Writes through the services as ACTOR_ID, invalidating `content` like the admin editors do. */
  store: ContentStore;
  /** How many times the services told the readers that content changed. */
  changes(): number;
  /** Another PublishedContent on the same database (a second app instance). */
  openInstance(): LivePublishedContent;
}

/** A fresh, migrated and seeded database per test file, with one PublishedContent on it and an editor account. */
export function useContentFixture(dialect: TestDialect): ContentFixture {
  const fixture = {} as ContentFixture;
  const extra: LivePublishedContent[] = [];
  let changes = 0;
  beforeAll(async () => {
    fixture.testDb = await createTestDatabase(dialect);
    fixture.handle = await prepareDatabase(fixture.testDb.config, logger);
    await insertActor(fixture.handle.db, { id: ACTOR_ID, email: "editor@example.test" });
    const open = () =>
      createPublishedContent({
        db: fixture.handle.db,
        dialect,
        databaseUrl: fixture.testDb.config.kind === "postgres" ? fixture.testDb.config.url : undefined,
        logger,
      });
    fixture.content = open();
    await fixture.content.ready();
    fixture.store = {
      db: fixture.handle.db,
      actorId: ACTOR_ID,
      onChange: () => {
        changes++;
        return fixture.content.invalidate();
      },
    };
    fixture.changes = () => changes;
    fixture.openInstance = () => {
      const instance = open();
      extra.push(instance);
      return instance;
    };
  });
  afterAll(async () => {
    for (const instance of extra) await instance.close();
    await fixture.content?.close();
    await fixture.handle?.close();
    await fixture.testDb?.drop();
  });
  return fixture;
}

/** The error a service call was refused with (fails the test when it was not refused with an AppError). */
export async function refusal(promise: Promise<unknown>): Promise<AppError & { fields?: Record<string, string> }> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, "expected the call to be refused").toBeInstanceOf(AppError);
  return outcome as AppError;
}

export const staleMessage = (thing: string) =>
  `This ${thing} was changed by someone else since you opened it. Reload to see the latest version.`;
export const STALE_LIST =
  "This list was changed by someone else since you opened it. Reload to see the latest version.";

/** The audit rows of one entity id (or of one action), oldest first. */
export async function auditOf(db: Kysely<Database>, filter: { entityId?: string; action?: string }) {
  let query = db.selectFrom("audit_log").selectAll().orderBy("at").orderBy("id");
  if (filter.entityId) query = query.where("entity_id", "=", filter.entityId);
  if (filter.action) query = query.where("action", "=", filter.action);
  return query.execute();
}

export async function countAudit(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Runs `work` while the audit log cannot be written (the table is renamed away, then
 * back): a write whose audit row fails must fail as a whole.
 */
export async function withoutAuditLog(db: Kysely<Database>, work: () => Promise<void>): Promise<void> {
  await db.schema.alterTable("audit_log").renameTo("audit_log_away").execute();
  try {
    await work();
  } finally {
    await db.schema.alterTable("audit_log_away").renameTo("audit_log").execute();
  }
}
