import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type ScreenReaderInstructions,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { GripVertical } from "lucide-react";
import { type ReactNode, useState } from "react";
import { cn } from "~/lib/cn";

/**
 * A list reordered by drag and drop, with the mouse, touch or the keyboard (dnd-kit):
 * focus an item's handle, Space to pick it up, arrows to move it, Space to drop it,
 * Escape to cancel; every step is announced. The new order is shown at once and sent
 * with onReorder; when the page's data comes back (or the move was refused), the list
 * follows the server's order again.
 */

export interface SortableItem {
  id: string;
}

export interface DragHandleProps {
  /** Spread on the handle button. */
  handleProps: Record<string, unknown>;
  /** The accessible name of the handle, e.g. "Reorder Introduction". */
  label: string;
}

export interface SortableListProps<Item extends SortableItem> {
  items: readonly Item[];
  /** A short name of an item for announcements and the handle's label. */
  nameOf: (item: Item) => string;
  onReorder: (orderedIds: string[]) => void;
  renderItem: (item: Item, handle: DragHandleProps, index: number) => ReactNode;
  /** Reordering off (e.g. while a move is being saved). */
  disabled?: boolean;
  className?: string;
  testId?: string;
}

const INSTRUCTIONS: ScreenReaderInstructions = {
  draggable:
    "To reorder, press Space or Enter to pick up the item, use the arrow keys to move it, then press Space or Enter to drop it, or Escape to cancel.",
};

export function SortableList<Item extends SortableItem>({
  items,
  nameOf,
  onReorder,
  renderItem,
  disabled = false,
  className,
  testId,
}: SortableListProps<Item>) {
  const serverOrder = items.map((item) => item.id);
  const serverKey = serverOrder.join("\n");
  // A dropped order is shown until the server's order changes (saved, refused, or changed
  // by someone else), and from the very render in which it changes: the server's wins.
  const [dropped, setDropped] = useState<{ basis: string; order: string[] } | null>(null);
  const order = dropped && dropped.basis === serverKey ? dropped.order : serverOrder;

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const byId = new Map(items.map((item) => [item.id, item]));
  const ordered = order.map((id) => byId.get(id)).filter((item): item is Item => item !== undefined);
  const name = (id: unknown) => {
    const item = byId.get(String(id));
    return item ? nameOf(item) : "the item";
  };
  const position = (id: unknown) => order.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}, position ${position(active.id)} of ${order.length}.`,
    onDragOver: ({ active, over }) =>
      over ? `${name(active.id)} is now at position ${position(over.id)} of ${order.length}.` : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? `${name(active.id)} dropped at position ${position(over.id)} of ${order.length}.`
        : `${name(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled.`,
  };

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const next = arrayMove(order, order.indexOf(String(active.id)), order.indexOf(String(over.id)));
    setDropped({ basis: serverKey, order: next });
    onReorder(next);
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: INSTRUCTIONS }}
    >
      <SortableContext items={order} strategy={verticalListSortingStrategy} disabled={disabled}>
        <ol className={cn("flex flex-col gap-2", className)} data-testid={testId}>
          {ordered.map((item, index) => (
            <SortableRow key={item.id} id={item.id} label={`Reorder ${nameOf(item)}`}>
              {(handle) => renderItem(item, handle, index)}
            </SortableRow>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableRow({
  id,
  label,
  children,
}: {
  id: string;
  label: string;
  children: (handle: DragHandleProps) => ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
  });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn("relative", isDragging && "z-10 opacity-80")}
      data-sortable-id={id}
    >
      {children({ label, handleProps: { ...attributes, ...listeners, ref: setActivatorNodeRef } })}
    </li>
  );
}

/** The grip every sortable row shows; a button, so it is reached with Tab. */
export function DragHandle({ handleProps, label }: DragHandleProps) {
  return (
    <button
      type="button"
      {...handleProps}
      aria-label={label}
      data-testid="drag-handle"
      className="flex size-9 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-fg-muted hover:bg-surface hover:text-fg active:cursor-grabbing"
    >
      <GripVertical aria-hidden="true" className="size-4" />
    </button>
  );
}
