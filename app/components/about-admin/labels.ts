import type { BadgeTone } from "~/components/ui/badge";
import type { CERTIFICATION_STATUSES, TIMELINE_CATEGORIES } from "../../../server/db/schema.ts";

/**
 * How the About page's certification statuses and timeline categories read, in the
 * admin and on the public page alike. No zod here: the public page imports it and
 * ships no form code.
 */

export const CERTIFICATION_STATUS_BADGES: Record<
  (typeof CERTIFICATION_STATUSES)[number],
  { label: string; tone: BadgeTone }
> = {
  completed: { label: "Completed", tone: "success" },
  "in-progress": { label: "In Progress", tone: "warning" },
  planned: { label: "Planned", tone: "neutral" },
};

export const TIMELINE_CATEGORY_LABELS: Record<(typeof TIMELINE_CATEGORIES)[number], string> = {
  education: "Education",
  project: "Project",
  certification: "Certification",
  career: "Career",
};
