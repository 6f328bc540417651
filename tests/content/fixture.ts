import { afterAll, beforeAll } from "vitest";
import { createPublishedContent, type LivePublishedContent } from "../../server/content/published.ts";
import type { ContentStore } from "../../server/content/store.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { createLogger } from "../../server/logger.ts";
import { createTestDatabase, type TestDatabase, type TestDialect } from "../helpers/databases.ts";

export const logger = createLogger({ level: "silent" });

export interface ContentFixture {
  testDb: TestDatabase;
  handle: DatabaseHandle;
  content: LivePublishedContent;
  /** Writes through the services, invalidating `content` like the admin editors do. */
  store: ContentStore;
  /** Another PublishedContent on the same database (a second app instance). */
  openInstance(): LivePublishedContent;
}

/** A fresh, migrated and seeded database per test file, with one PublishedContent on it. */
export function useContentFixture(dialect: TestDialect): ContentFixture {
  const fixture = {} as ContentFixture;
  const extra: LivePublishedContent[] = [];
  beforeAll(async () => {
    fixture.testDb = await createTestDatabase(dialect);
    fixture.handle = await prepareDatabase(fixture.testDb.config, logger);
    const open = () =>
      createPublishedContent({
        db: fixture.handle.db,
        dialect,
        databaseUrl: fixture.testDb.config.kind === "postgres" ? fixture.testDb.config.url : undefined,
        logger,
      });
    fixture.content = open();
    await fixture.content.ready();
    fixture.store = { db: fixture.handle.db, onChange: () => fixture.content.invalidate() };
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
