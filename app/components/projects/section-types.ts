import { Code, Heading2, Image, Lightbulb, List, type LucideIcon, Pilcrow } from "lucide-react";
import type { SectionType } from "../../../server/content/section-input.ts";
import { SECTION_TYPES } from "../../../server/db/schema.ts";

/** How the admin names and draws each type of section. */
export const SECTION_TYPE_LABELS: Record<SectionType, string> = {
  heading: "Heading",
  text: "Text",
  tip: "Tip",
  list: "List",
  code: "Code",
  image: "Image",
};

export const SECTION_TYPE_ICONS: Record<SectionType, LucideIcon> = {
  heading: Heading2,
  text: Pilcrow,
  tip: Lightbulb,
  list: List,
  code: Code,
  image: Image,
};

export const SECTION_TYPE_OPTIONS = SECTION_TYPES.map((type) => ({ value: type, label: SECTION_TYPE_LABELS[type] }));

const EXCERPT_LENGTH = 80;

/** The list's preview of a section: the first 80 characters of its content (an image's: its URL), on one line. */
export function sectionExcerpt(content: string): string {
  const flat = content.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}…` : flat;
}
