import { useEffect, useRef } from "react";
import { SortableList } from "~/components/forms/sortable-list";
import type { SectionRecord } from "../../../server/content/sections.ts";
import { SectionRow } from "./section-row";
import { SECTION_TYPE_LABELS } from "./section-types";
import { useSectionOrder } from "./use-section-order";

interface Move {
  id: string;
  direction: "up" | "down";
}

/**
 * The chapter's sections in reading order, reordered by drag and drop (keyboard
 * included) or one step at a time with the move buttons.
 */
export function SectionList({
  chapterId,
  sections,
  listRevision,
}: {
  chapterId: string;
  sections: SectionRecord[];
  listRevision: number;
}) {
  const order = useSectionOrder(listRevision);
  const list = useRef<HTMLDivElement>(null);
  const lastMove = useRef<Move | null>(null);
  const nameOf = (section: SectionRecord) =>
    `${SECTION_TYPE_LABELS[section.type]} section ${sections.indexOf(section) + 1}`;

  // A moved row is put back in the DOM, which drops its focus: once the move is saved (the
  // list shows the saved order in the same render), focus returns to the button pressed,
  // or to the other one at either end.
  useEffect(() => {
    const moved = lastMove.current;
    if (!moved || order.busy) return;
    lastMove.current = null;
    const row = list.current?.querySelector(`[data-section-id="${CSS.escape(moved.id)}"]`);
    const button =
      row?.querySelector<HTMLButtonElement>(`[data-move="${moved.direction}"]:not(:disabled)`) ??
      row?.querySelector<HTMLButtonElement>("[data-move]:not(:disabled)");
    button?.focus();
  }, [order.busy]);

  return (
    <div ref={list}>
      <SortableList
        items={sections}
        nameOf={nameOf}
        disabled={order.busy}
        testId="section-list"
        onReorder={(orderedIds) => order.reorder(chapterId, orderedIds)}
        renderItem={(section, handle, index) => (
          <SectionRow
            section={section}
            name={nameOf(section)}
            handle={handle}
            first={index === 0}
            last={index === sections.length - 1}
            busy={order.busy}
            onMove={(direction) => {
              lastMove.current = { id: section.id, direction };
              order.move(section.id, direction);
            }}
          />
        )}
      />
    </div>
  );
}
