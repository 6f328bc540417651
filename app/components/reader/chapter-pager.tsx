import { ChevronLeft, ChevronRight } from "lucide-react";
import type { ChapterSummary } from "../../../server/content/types.ts";

const BOX = "flex min-w-0 flex-1 flex-col gap-1 rounded-lg border px-4 py-3 text-sm";

/** Previous / Next chapter links; at either end a disabled, non-link placeholder. */
export function ChapterPager({ previous, next }: { previous: ChapterSummary | null; next: ChapterSummary | null }) {
  return (
    <nav aria-label="Chapter navigation" data-print="hide" className="mt-12 flex gap-3 border-t border-line pt-6">
      <PagerItem chapter={previous} direction="previous" />
      <PagerItem chapter={next} direction="next" />
    </nav>
  );
}

function PagerItem({ chapter, direction }: { chapter: ChapterSummary | null; direction: "previous" | "next" }) {
  const label = direction === "previous" ? "Previous" : "Next";
  const align = direction === "previous" ? "items-start text-left" : "items-end text-right";
  const icon =
    direction === "previous" ? (
      <ChevronLeft aria-hidden="true" className="size-4" />
    ) : (
      <ChevronRight aria-hidden="true" className="size-4" />
    );
  if (!chapter) {
    return (
      <span
        aria-disabled="true"
        data-testid={`pager-${direction}`}
        className={`${BOX} ${align} border-dashed border-line text-fg-muted`}
      >
        <span className="flex items-center gap-1 font-semibold">
          {direction === "previous" && icon}
          {label}
          {direction === "next" && icon}
        </span>
        <span>{direction === "previous" ? "This is the first chapter" : "This is the last chapter"}</span>
      </span>
    );
  }
  return (
    <a
      href={`/projects/${chapter.slug}`}
      rel={direction === "previous" ? "prev" : "next"}
      data-testid={`pager-${direction}`}
      className={`${BOX} ${align} border-line bg-surface-raised text-fg transition-colors hover:border-accent`}
    >
      <span className="flex items-center gap-1 font-semibold text-accent">
        {direction === "previous" && icon}
        {label}
        {direction === "next" && icon}
      </span>
      <span className="max-w-full truncate">
        {chapter.number}. {chapter.title}
      </span>
    </a>
  );
}
