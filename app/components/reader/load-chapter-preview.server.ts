import { data } from "react-router";
import type { AppServices } from "~/context";
import { getViewer } from "../../../server/auth/guards.ts";
import { readChapterPreview } from "../../../server/content/draft-preview.ts";
import { mediaLibraryOf } from "../../../server/media/library.ts";
import { prepareChapterPreview } from "./load-chapter.server";
import type { ReaderData } from "./types";

/** A preview is the editor's own view of unpublished work: never stored by a browser, a proxy or a CDN, never indexed. */
export const CHAPTER_PREVIEW_HEADERS = {
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex",
} as const;

/**
 * /projects/<slug>?preview: the chapter as visitors will see it, for editors and
 * admins, published or not. Anyone else gets the 404 of any unpublished chapter, so a
 * draft's existence is not disclosed.
 */
export async function loadDraftPreview(
  services: AppServices,
  request: Request,
  slug: string,
): Promise<ReaderData & { preview: { published: boolean } }> {
  const viewer = await getViewer(services, request);
  const preview = viewer?.roles.isEditor ? await readChapterPreview(services.db, slug) : null;
  if (!preview) throw data(null, { status: 404 });
  const reader = await prepareChapterPreview(preview, mediaLibraryOf(services), services.config.publicOrigin);
  return { ...reader, preview: { published: preview.published } };
}
