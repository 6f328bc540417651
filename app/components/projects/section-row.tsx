import { ArrowDown, ArrowUp, Pencil } from "lucide-react";
import { DeleteItemButton } from "~/components/forms/delete-item-button";
import { DragHandle, type DragHandleProps } from "~/components/forms/sortable-list";
import { Badge } from "~/components/ui/badge";
import { IconButton } from "~/components/ui/icon-button";
import type { SectionRecord } from "../../../server/content/sections.ts";
import { PROJECTS_INTENTS } from "./schemas";
import { EditSectionDialog } from "./section-dialogs";
import { SECTION_TYPE_ICONS, SECTION_TYPE_LABELS, sectionExcerpt } from "./section-types";

export interface SectionRowProps {
  section: SectionRecord;
  /** "Text section 2": names the row's controls. */
  name: string;
  handle: DragHandleProps;
  first: boolean;
  last: boolean;
  /** A reorder is being saved: the moves wait for it. */
  busy: boolean;
  onMove(direction: "up" | "down"): void;
}

/** One section in the chapter's list: its type, the start of its content, and what can be done to it. */
export function SectionRow({ section, name, handle, first, last, busy, onMove }: SectionRowProps) {
  const Icon = SECTION_TYPE_ICONS[section.type];
  return (
    <div
      data-testid="section-row"
      data-section-id={section.id}
      className="flex items-start gap-1 rounded-lg border border-line bg-surface-raised p-2"
    >
      <DragHandle {...handle} />
      {/* The excerpt has the row's whole width under the type and the buttons, so 80 characters fit on a phone too. */}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <Icon aria-hidden="true" className="size-4 shrink-0 text-accent" />
          <Badge>{SECTION_TYPE_LABELS[section.type]}</Badge>
          <div className="ml-auto flex items-center gap-1">
            <IconButton
              icon={ArrowUp}
              label={`Move ${name} up`}
              data-move="up"
              disabled={first || busy}
              onClick={() => onMove("up")}
            />
            <IconButton
              icon={ArrowDown}
              label={`Move ${name} down`}
              data-move="down"
              disabled={last || busy}
              onClick={() => onMove("down")}
            />
            <EditSectionDialog section={section} trigger={<IconButton icon={Pencil} label={`Edit ${name}`} />} />
            <DeleteItemButton
              name={name}
              description="The section is removed from the chapter and from the public reader. This action cannot be undone."
              confirmLabel="Delete section"
              intent={PROJECTS_INTENTS.deleteSection}
              fields={{ id: section.id }}
            />
          </div>
        </div>
        <p data-testid="section-excerpt" className="pr-2 pb-1 text-sm wrap-anywhere text-fg">
          {sectionExcerpt(section.content)}
        </p>
      </div>
    </div>
  );
}
