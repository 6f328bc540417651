import { useActionFetcher } from "~/components/forms/use-action-fetcher";
import { PROJECTS_INTENTS } from "./schemas";

type OrderField = [name: string, value: string];

/**
 * The two ways of reordering a chapter's sections: one step up or down (the spec's
 * buttons) and drag and drop (the whole new order). Both name the list's revision; a
 * refused reorder loads the page's data again, so the list shows the server's order.
 */
export function useSectionOrder(listRevision: number) {
  const move = useActionFetcher(PROJECTS_INTENTS.moveSection);
  const reorder = useActionFetcher(PROJECTS_INTENTS.reorderSections);

  function submit(fetcher: typeof move.fetcher, intent: string, fields: OrderField[]) {
    const form = new FormData();
    form.append("intent", intent);
    form.append("listRevision", String(listRevision));
    for (const [name, value] of fields) form.append(name, value);
    // After a 4xx the router would keep the page's data as it was: the list would keep the refused order.
    fetcher.submit(form, { method: "post", defaultShouldRevalidate: true });
  }

  return {
    busy: move.busy || reorder.busy,
    move: (id: string, direction: "up" | "down") =>
      submit(move.fetcher, PROJECTS_INTENTS.moveSection, [
        ["id", id],
        ["direction", direction],
      ]),
    reorder: (chapterId: string, orderedIds: string[]) =>
      submit(reorder.fetcher, PROJECTS_INTENTS.reorderSections, [
        ["chapterId", chapterId],
        ...orderedIds.map((id): OrderField => ["orderedIds", id]),
      ]),
  };
}
