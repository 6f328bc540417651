import { afterAll, beforeAll } from "vitest";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { createLogger } from "../../server/logger.ts";
import { createMediaLibrary, type MediaLibrary, type MediaLibraryOptions } from "../../server/media/library.ts";
import { insertActor } from "../helpers/actor.ts";
import { createTestDatabase, type TestDatabase, type TestDialect } from "../helpers/databases.ts";
import { type StorageDriver, type StorageFixture, useStorage } from "./storage-drivers.ts";

export const ACTOR_ID = "user-media-editor";

export interface LibraryFixture extends StorageFixture {
  handle: DatabaseHandle;
  library: MediaLibrary;
  /** How many times the library told the published pages that media changed. */
  changes(): number;
  /** A second library on the same database and storage, with other options. */
  openLibrary(options: Partial<MediaLibraryOptions>): MediaLibrary;
}

/** A migrated database with an editor account, a storage of the driver, and the media library on them. */
export function useLibrary(dialect: TestDialect, driver: StorageDriver): LibraryFixture {
  const storage = useStorage(driver);
  const fixture = storage as LibraryFixture;
  let testDb: TestDatabase | undefined;
  let changes = 0;
  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    fixture.handle = await prepareDatabase(testDb.config, createLogger({ level: "silent" }));
    await insertActor(fixture.handle.db, { id: ACTOR_ID, email: "media@example.test" });
    fixture.openLibrary = (options) =>
      createMediaLibrary({
        db: fixture.handle.db,
        storage: fixture.storage,
        logger: createLogger({ level: "silent" }),
        onChange: async () => {
          changes++;
        },
        ...options,
      });
    fixture.library = fixture.openLibrary({});
    fixture.changes = () => changes;
  });
  afterAll(async () => {
    await fixture.handle?.close();
    await testDb?.drop();
  });
  return fixture;
}

/** A published chapter with image sections showing these URLs (seeded directly, as the content editor would write them). */
export async function chapterShowing(
  db: DatabaseHandle["db"],
  title: string,
  images: Array<{ url: string; alt?: string | null; caption?: string | null }>,
): Promise<{ chapterId: string; sectionIds: string[] }> {
  const chapterId = `chapter-${title.toLowerCase().replace(/\W+/g, "-")}`;
  await db
    .insertInto("chapters")
    .values({ id: chapterId, slug: chapterId, title, number: 1, order_index: 0, published: true })
    .execute();
  const sectionIds = images.map((_image, index) => `${chapterId}-image-${index}`);
  await db
    .insertInto("chapter_sections")
    .values(
      images.map((image, index) => ({
        id: sectionIds[index] as string,
        chapter_id: chapterId,
        type: "image" as const,
        content: image.url,
        caption: image.caption ?? null,
        language: null,
        alt: image.alt ?? null,
        order_index: index,
      })),
    )
    .execute();
  return { chapterId, sectionIds };
}
