import { data } from "react-router";
import { publicPageMeta } from "~/components/public/page-meta";
import { DraftPreviewNotice } from "~/components/reader/draft-preview-notice";
import { loadReader } from "~/components/reader/load-chapter.server";
import { CHAPTER_PREVIEW_HEADERS, loadDraftPreview } from "~/components/reader/load-chapter-preview.server";
import { Reader } from "~/components/reader/reader";
import { servicesContext } from "~/context";
import { pageTitle } from "~/lib/meta";
import { mediaLibraryOf } from "../../../server/media/library.ts";
import type { Route } from "./+types/chapter";

/**
 * /projects/:slug: a published chapter; a former slug redirects (301); drafts and
 * unknown slugs are 404. /projects/:slug?preview: for editors, the chapter whatever
 * its state, with a notice (load-chapter-preview.server.ts).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  if (new URL(request.url).searchParams.has("preview")) {
    return data(await loadDraftPreview(services, request, params.slug), { headers: CHAPTER_PREVIEW_HEADERS });
  }
  const reader = await loadReader(
    services.content,
    mediaLibraryOf(services),
    services.config.publicOrigin,
    params.slug,
  );
  return { ...reader, preview: null };
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
