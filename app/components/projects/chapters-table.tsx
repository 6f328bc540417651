import { BookOpen, Eye, Pencil } from "lucide-react";
import { Link } from "react-router";
import { DeleteItemButton } from "~/components/forms/delete-item-button";
import { Badge } from "~/components/ui/badge";
import { EmptyState } from "~/components/ui/empty-state";
import { IconButton } from "~/components/ui/icon-button";
import { IconLink } from "~/components/ui/icon-link";
import { Table, TableActions, TableBody, TableCell, TableHead, TableRow } from "~/components/ui/table";
import { cn } from "~/lib/cn";
import type { ChapterRecord } from "../../../server/content/chapters.ts";
import { EditChapterDialog } from "./chapter-dialogs";
import { PROJECTS_INTENTS } from "./schemas";

/** The chapters as the spec's table (number, title, Published/Draft, actions); a title chooses the chapter. */
export function ChaptersTable({ chapters, selectedId }: { chapters: ChapterRecord[]; selectedId: string | null }) {
  if (chapters.length === 0) {
    return <EmptyState icon={BookOpen}>No chapters yet. Create the first one to start a project or course.</EmptyState>;
  }
  return (
    <Table data-testid="chapters-table">
      <caption className="sr-only">Chapters; choose one to manage its sections</caption>
      <TableHead columns={["No.", "Title", "Status", "Actions"]} />
      <TableBody>
        {chapters.map((chapter) => (
          <ChapterRow key={chapter.id} chapter={chapter} selected={chapter.id === selectedId} />
        ))}
      </TableBody>
    </Table>
  );
}

function ChapterRow({ chapter, selected }: { chapter: ChapterRecord; selected: boolean }) {
  return (
    <TableRow
      data-testid="chapter-row"
      data-chapter-id={chapter.id}
      className={cn(selected && "bg-surface max-sm:border-accent")}
    >
      <TableCell label="No." className="text-fg-muted tabular-nums">
        {chapter.number}
      </TableCell>
      <TableCell label="Title">
        <Link
          to={{ search: `?${new URLSearchParams({ chapter: chapter.id })}`, hash: "sections" }}
          aria-current={selected ? "true" : undefined}
          data-testid="choose-chapter"
          className={cn("font-medium underline-offset-4 hover:underline", selected ? "text-accent" : "text-fg")}
        >
          {chapter.title}
        </Link>
      </TableCell>
      <TableCell label="Status">
        <Badge tone={chapter.published ? "success" : "warning"}>{chapter.published ? "Published" : "Draft"}</Badge>
      </TableCell>
      <TableActions>
        {/* One row of buttons beside the values; the kit's cell would stack them in a narrow column. */}
        <div className="flex items-center gap-1">
          <IconLink
            icon={Eye}
            label={`Preview ${chapter.title}`}
            href={`/projects/${encodeURIComponent(chapter.slug)}?preview`}
          />
          <EditChapterDialog
            chapter={chapter}
            trigger={<IconButton icon={Pencil} label={`Edit ${chapter.title}`} data-testid="edit-chapter" />}
          />
          <DeleteItemButton
            name={chapter.title}
            data-testid="delete-chapter"
            description="The chapter and all of its sections are deleted, and it disappears from the public reader. This action cannot be undone."
            confirmLabel="Delete chapter"
            intent={PROJECTS_INTENTS.deleteChapter}
            fields={{ id: chapter.id }}
          />
        </div>
      </TableActions>
    </TableRow>
  );
}
