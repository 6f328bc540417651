import { ArrowUp, type LucideIcon, Pencil, Plus } from "lucide-react";
import type { ReactNode } from "react";
import { DeleteItemButton } from "~/components/forms/delete-item-button";
import { DragHandle, SortableList } from "~/components/forms/sortable-list";
import { useActionFetcher } from "~/components/forms/use-action-fetcher";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { IconButton } from "~/components/ui/icon-button";
import type { ListIntents } from "./schemas";

export interface ProfileListItem {
  id: string;
  revision: number;
}

export interface ProfileListProps<Item extends ProfileListItem> {
  /** The list's heading ("Certifications"), and what one item is called in a sentence and in a title. */
  title: string;
  thing: string;
  thingTitle: string;
  description: string;
  icon: LucideIcon;
  items: readonly Item[];
  /** The list's revision, sent with every move so that a list changed since is not rearranged blind. */
  listRevision: number;
  intents: ListIntents;
  /** An item's name, for the buttons' labels and the announcements of drag and drop. */
  nameOf: (item: Item) => string;
  /** What a row shows of the item. */
  summary: (item: Item) => ReactNode;
  /** The list's add dialog, opened by the given button. */
  addDialog: (trigger: ReactNode) => ReactNode;
  /** An item's edit dialog, opened by the given button. */
  editDialog: (item: Item, trigger: ReactNode) => ReactNode;
  /** What deleting an item takes away (the confirmation adds that it cannot be undone). */
  deleteEffect: string;
  testId: string;
}

/**
 * The one list of the About editor (certifications, skills, timeline events): add,
 * edit and delete; reorder by drag and drop (keyboard included) or one step up at a
 * time. One order change is sent at a time, each with the list's revision.
 */
export function ProfileList<Item extends ProfileListItem>(props: ProfileListProps<Item>) {
  const { title, thing, items, listRevision, intents, nameOf } = props;
  const moveUp = useActionFetcher(intents.moveUp);
  const reorder = useActionFetcher(intents.reorder);
  const ordering = moveUp.busy || reorder.busy;

  function sendOrder(orderedIds: string[]) {
    const positions = Object.fromEntries(orderedIds.map((id, index) => [`orderedIds[${index}]`, id]));
    // After a 4xx the router would keep the page's data as it was: the list would keep the refused order.
    reorder.fetcher.submit(
      { intent: intents.reorder, listRevision: String(listRevision), ...positions },
      { method: "post", defaultShouldRevalidate: true },
    );
  }

  function sendMoveUp(item: Item) {
    moveUp.fetcher.submit(
      { intent: intents.moveUp, id: item.id, listRevision: String(listRevision) },
      { method: "post", defaultShouldRevalidate: true },
    );
  }

  const addButton = (
    <Button>
      <Plus aria-hidden="true" className="size-4" />
      Add {props.thingTitle}
    </Button>
  );

  return (
    <Card data-testid={props.testId}>
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="flex min-w-0 flex-col gap-1.5">
            <CardTitle>{title}</CardTitle>
            <CardDescription>{props.description}</CardDescription>
          </div>
          {props.addDialog(addButton)}
        </div>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <EmptyState icon={props.icon}>
            No {title.toLowerCase()} yet. Add your first {thing}!
          </EmptyState>
        ) : (
          <SortableList
            items={items}
            nameOf={nameOf}
            onReorder={sendOrder}
            disabled={ordering}
            testId={`${props.testId}-items`}
            renderItem={(item, handle, index) => (
              <div
                data-testid="profile-item"
                className="flex items-start gap-2 rounded-lg border border-line bg-surface p-3 sm:items-center"
              >
                <DragHandle {...handle} />
                <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-4 gap-y-2">
                  <div className="min-w-0 flex-1 basis-56">{props.summary(item)}</div>
                  <div className="flex shrink-0 items-center gap-1">
                    <IconButton
                      icon={ArrowUp}
                      label={`Move ${nameOf(item)} up`}
                      // aria-disabled, not disabled: the button keeps focus while its move is saved.
                      aria-disabled={index === 0 || ordering}
                      className="aria-disabled:cursor-not-allowed aria-disabled:opacity-40"
                      onClick={() => {
                        if (index > 0 && !ordering) sendMoveUp(item);
                      }}
                    />
                    {props.editDialog(item, <IconButton icon={Pencil} label={`Edit ${nameOf(item)}`} />)}
                    <DeleteItemButton
                      name={nameOf(item)}
                      description={`${props.deleteEffect} This action cannot be undone.`}
                      intent={intents.delete}
                      fields={{ id: item.id }}
                    />
                  </div>
                </div>
              </div>
            )}
          />
        )}
      </CardContent>
    </Card>
  );
}
