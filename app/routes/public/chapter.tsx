import { data, redirect } from "react-router";
import { publicPageMeta } from "~/components/public/page-meta";
import { DraftPreviewNotice } from "~/components/reader/draft-preview-notice";
import { Reader } from "~/components/reader/reader";
import { servicesContext } from "~/context";
import { pageTitle } from "~/lib/meta";
import { getViewer } from "../../../server/auth/guards.ts";
import { readChapterPreview } from "../../../server/content/draft-preview.ts";
import { prepareChapterPreview, readReader } from "../../../server/content/reader.ts";
import { mediaLibraryOf } from "../../../server/media/library.ts";
import type { Route } from "./+types/chapter";

/** A preview is the editor's own view of unpublished work: never stored by a browser, a proxy or a CDN, never indexed. */
const CHAPTER_PREVIEW_HEADERS = {
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex",
} as const;

/**
 * /projects/:slug: a published chapter; a former slug redirects (301); drafts and
 * unknown slugs are 404. /projects/:slug?preview: for editors and admins, the chapter
 * as visitors will see it, published or not, with a notice. Anyone else (a preview
 * link passed on) is sent to the published chapter's own address, or gets the 404 of
 * any unpublished chapter, so a draft's existence is not disclosed.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const sources = { media: mediaLibraryOf(services), logger: services.logger };
  const origin = services.config.publicOrigin;
  if (new URL(request.url).searchParams.has("preview")) {
    const viewer = await getViewer(services, request);
    const isEditor = Boolean(viewer?.roles.isEditor);
    const preview = isEditor ? await readChapterPreview(services.db, params.slug) : null;
    if (preview) {
      const reader = await prepareChapterPreview(preview, sources, origin);
      return data({ ...reader, preview: { published: preview.published } }, { headers: CHAPTER_PREVIEW_HEADERS });
    }
    // 302, not 301: for an editor the same address is the preview.
    const published = await services.content.chapter(params.slug);
    if (published.kind === "missing") throw data(null, { status: 404 });
    const slug = published.kind === "redirect" ? published.slug : params.slug;
    throw redirect(`/projects/${encodeURIComponent(slug)}${isEditor ? "?preview" : ""}`, 302);
  }
  const lookup = await readReader(services.content, sources, origin, params.slug);
  if (lookup.kind === "redirect") throw redirect(`/projects/${encodeURIComponent(lookup.slug)}`, 301);
  if (lookup.kind === "missing") throw data(null, { status: 404 });
  return { ...lookup.reader, preview: null };
}

// The preview's own headers; a published chapter's are left to the page cache.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const current = loaderData?.current;
  if (!loaderData || !current) return [];
  if (loaderData.preview) {
    return [{ title: pageTitle(`Preview: ${current.chapter.title}`) }, { name: "robots", content: "noindex" }];
  }
  return publicPageMeta({
    title: `${current.chapter.title} · Projects & Courses`,
    description: current.description,
    origin: loaderData.origin,
    path: loaderData.path,
    type: "article",
  });
};

export default function ChapterPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      {loaderData.preview && <DraftPreviewNotice published={loaderData.preview.published} />}
      <Reader data={loaderData} />
    </>
  );
}
