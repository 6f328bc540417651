import { Layers, MousePointerClick, Plus } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import type { ChapterRecord } from "../../../server/content/chapters.ts";
import type { RevisionedList } from "../../../server/content/list-revisions.ts";
import type { SectionRecord } from "../../../server/content/sections.ts";
import { AddSectionDialog } from "./section-dialogs";
import { SectionList } from "./section-list";

/** The sections of the chosen chapter, or the spec's prompt to choose one. The chapter links jump here (#sections). */
export function SectionsPanel({
  chapter,
  sections,
}: {
  chapter: ChapterRecord | null;
  sections: RevisionedList<SectionRecord> | null;
}) {
  return (
    <Card id="sections" data-testid="sections-panel" className="scroll-mt-20">
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <CardTitle>Sections</CardTitle>
            <CardDescription className="mt-1.5 wrap-anywhere">
              {chapter ? `Chapter ${chapter.number}: ${chapter.title}` : "The parts of a chapter, in reading order."}
            </CardDescription>
          </div>
          {chapter && (
            <AddSectionDialog
              chapterId={chapter.id}
              trigger={
                <Button size="sm" data-testid="add-section">
                  <Plus aria-hidden="true" className="size-4" />
                  Add Section
                </Button>
              }
            />
          )}
        </div>
      </CardHeader>
      <CardContent>
        {!chapter || !sections ? (
          <EmptyState icon={MousePointerClick}>Select a chapter to view and manage sections</EmptyState>
        ) : sections.items.length === 0 ? (
          <EmptyState icon={Layers}>No sections yet. Add your first section!</EmptyState>
        ) : (
          <SectionList chapterId={chapter.id} sections={sections.items} listRevision={sections.revision} />
        )}
      </CardContent>
    </Card>
  );
}
