import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { prepareSectionPreview, type ReaderSection, type ReaderSources } from "../../../server/content/reader.ts";
import { imageOriginRefusal } from "../../../server/content/section-input.ts";
import { PROJECTS_INTENTS, sectionPreviewSchema } from "./schemas";

/** The answer to a live preview: the section as the reader shows it, or why there is nothing to show. */
export type SectionPreviewAnswer =
  | { intent: typeof PROJECTS_INTENTS.previewSection; section: ReaderSection | null }
  | { intent: typeof PROJECTS_INTENTS.previewSection; error: string };

/**
 * The section editor's live preview: the form's current values, checked with the
 * editor's own schema, prepared by the public reader's code (Shiki included, which
 * runs on the server only). Nothing is saved; input that is not a section, or an image
 * the pages would not show (imageOriginRefusal), is a 400.
 */
export async function answerSectionPreview(
  formData: FormData,
  sources: ReaderSources,
  imageOrigins: readonly string[],
) {
  const submission = parseWithZod(formData, { schema: sectionPreviewSchema });
  if (submission.status !== "success") {
    return previewRefusal(Object.values(submission.error ?? {}).flat()[0] ?? "Nothing to preview.");
  }
  const refusal = submission.value.type === "image" ? imageOriginRefusal(submission.value.content, imageOrigins) : null;
  if (refusal) return previewRefusal(refusal);
  const section = await prepareSectionPreview({ id: "section-preview", ...submission.value }, sources);
  return data<SectionPreviewAnswer>({ intent: PROJECTS_INTENTS.previewSection, section });
}

function previewRefusal(message: string) {
  return data<SectionPreviewAnswer>({ intent: PROJECTS_INTENTS.previewSection, error: message }, { status: 400 });
}
