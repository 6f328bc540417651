import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { stemOf } from "./names.ts";
import type { MediaRecord } from "./records.ts";
import type { MediaStorage } from "./storage/storage.ts";

/** A chapter section showing an image: an image section whose content is the image's URL (or a variant's). */
export interface MediaUsage {
  chapterId: string;
  chapterTitle: string;
  sectionId: string;
}

/** Where each of these images is used, by media id (images used nowhere are left out). */
export async function findUsage(
  db: Kysely<Database>,
  storage: Pick<MediaStorage, "pathOf">,
  media: MediaRecord[],
): Promise<Map<string, MediaUsage[]>> {
  const usage = new Map<string, MediaUsage[]>();
  if (media.length === 0) return usage;
  const owners = new Map<string, string>();
  for (const item of media) {
    owners.set(item.path, item.id);
    for (const variant of item.variants) owners.set(variant.path, item.id);
  }

  let query = db
    .selectFrom("chapter_sections")
    .innerJoin("chapters", "chapters.id", "chapter_sections.chapter_id")
    .select([
      "chapter_sections.id as sectionId",
      "chapter_sections.content",
      "chapters.id as chapterId",
      "chapters.title as chapterTitle",
    ])
    .where("chapter_sections.type", "=", "image")
    .orderBy("chapters.order_index")
    .orderBy("chapter_sections.order_index");
  // One image: only sections naming its stem can use it (stems are [0-9a-z-], nothing LIKE treats specially).
  if (media.length === 1) query = query.where("chapter_sections.content", "like", `%${stemOf(media[0]!.path)}%`);

  for (const { content, ...place } of await query.execute()) {
    const path = storage.pathOf(content.trim());
    const owner = path === null ? undefined : owners.get(path);
    if (owner === undefined) continue;
    usage.set(owner, [...(usage.get(owner) ?? []), place]);
  }
  return usage;
}
