import { useState } from "react";
import type { FormActionData } from "~/lib/forms";

/**
 * The revisions of a form whose entries are saved together (the About texts, the site
 * settings, the home page), one hidden input per entry, so that a save over someone
 * else's change is refused.
 *
 * They are the revisions of the values the fields hold: those the page was opened
 * with, then those the form's own successful save brought back. The page's data also
 * comes back after the page's other forms are saved (a skill added on the About page),
 * possibly with another editor's changes, while the fields keep what they showed:
 * taking those revisions would let this form overwrite the changes unseen.
 */
export function EntryRevisions<Key extends string>({
  keys,
  state,
  entries,
}: {
  keys: readonly Key[];
  state: {
    fields: Record<Key, { getFieldset(): { revision: { name: string } } }>;
    answer: FormActionData | undefined;
    busy: boolean;
  };
  entries: Record<Key, { revision: number }>;
}) {
  const { fields, answer, busy } = state;
  const [held, setHeld] = useState({ entries, answer });
  // Once the fetcher is idle again, the page's data is the one reloaded after the save.
  if (answer?.ok && !busy && answer !== held.answer) setHeld({ entries, answer });
  return keys.map((key) => (
    <input key={key} type="hidden" name={fields[key].getFieldset().revision.name} value={held.entries[key].revision} />
  ));
}
