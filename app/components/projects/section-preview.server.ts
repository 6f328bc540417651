import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { prepareSectionPreview, type ReaderSection } from "../../../server/content/reader.ts";
import type { MediaLibrary } from "../../../server/media/library.ts";
import { PROJECTS_INTENTS, sectionPreviewSchema } from "./schemas";

/** The answer to a live preview: the section as the reader shows it, or why there is nothing to show. */
export type SectionPreviewAnswer =
  | { intent: typeof PROJECTS_INTENTS.previewSection; section: ReaderSection | null }
  | { intent: typeof PROJECTS_INTENTS.previewSection; error: string };

/**
 * The section editor's live preview: the form's current values, checked with the
 * editor's own schema, prepared by the public reader's code (Shiki included, which
 * runs on the server only). Nothing is saved; input that is not a section is a 400.
 */
export async function answerSectionPreview(formData: FormData, media: Pick<MediaLibrary, "describeImages">) {
  const submission = parseWithZod(formData, { schema: sectionPreviewSchema });
  if (submission.status !== "success") {
    const message = Object.values(submission.error ?? {}).flat()[0] ?? "Nothing to preview.";
    return data<SectionPreviewAnswer>({ intent: PROJECTS_INTENTS.previewSection, error: message }, { status: 400 });
  }
  const section = await prepareSectionPreview({ id: "section-preview", ...submission.value }, media);
  return data<SectionPreviewAnswer>({ intent: PROJECTS_INTENTS.previewSection, section });
}
