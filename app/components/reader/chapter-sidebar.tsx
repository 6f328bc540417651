import { BookOpen, ChevronDown } from "lucide-react";
import type { ChapterSummary } from "../../../server/content/types.ts";

function ChapterList({ chapters, currentSlug }: { chapters: ChapterSummary[]; currentSlug: string | undefined }) {
  return (
    <ol className="space-y-1">
      {chapters.map((chapter) => {
        const current = chapter.slug === currentSlug;
        return (
          <li key={chapter.id}>
            <a
              href={`/projects/${chapter.slug}`}
              aria-current={current ? "page" : undefined}
              className={`flex gap-3 rounded-md px-3 py-2 text-sm transition-colors hover:bg-surface-raised hover:text-fg ${
                current ? "bg-surface-raised font-semibold text-accent" : "text-fg-muted"
              }`}
            >
              <span className="w-6 shrink-0 font-mono text-xs leading-5 tabular-nums">
                {String(chapter.number).padStart(2, "0")}
              </span>
              <span>{chapter.title}</span>
            </a>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The published chapters by number and title. Wide screens: a sticky column. Small
 * screens: a <details> disclosure, so it opens and closes without JavaScript.
 */
export function ChapterSidebar({ chapters, currentSlug }: { chapters: ChapterSummary[]; currentSlug?: string }) {
  return (
    <>
      <details
        data-testid="chapters-mobile"
        data-print="hide"
        className="group rounded-lg border border-line lg:hidden"
      >
        <summary className="flex cursor-pointer list-none items-center justify-between gap-2 px-4 py-3 text-sm font-semibold text-fg [&::-webkit-details-marker]:hidden">
          <span className="flex items-center gap-2">
            <BookOpen aria-hidden="true" className="size-4 text-accent" />
            Chapters ({chapters.length})
          </span>
          <ChevronDown aria-hidden="true" className="size-4 transition-transform group-open:rotate-180" />
        </summary>
        <nav aria-label="Chapters" className="border-t border-line p-2">
          <ChapterList chapters={chapters} currentSlug={currentSlug} />
        </nav>
      </details>
      <nav
        aria-label="Chapters"
        data-testid="chapters-sidebar"
        data-print="hide"
        // p-1: a scrolling box clips what overflows it, the links' focus outline too (2px
        // wide, 2px out); -mx-1 keeps the list aligned with the column.
        className="sticky top-6 -mx-1 hidden max-h-[calc(100dvh-3rem)] overflow-y-auto p-1 lg:block"
      >
        <h2 className="mb-3 flex items-center gap-2 px-3 text-xs font-semibold tracking-widest text-fg-muted uppercase">
          <BookOpen aria-hidden="true" className="size-4 text-accent" />
          Chapters
        </h2>
        <ChapterList chapters={chapters} currentSlug={currentSlug} />
      </nav>
    </>
  );
}
