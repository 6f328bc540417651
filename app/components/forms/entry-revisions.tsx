/**
 * The revisions of a form whose entries are saved together (the About texts, the site
 * settings, the home page), one hidden input per entry, so that a save over someone
 * else's change is refused. Controlled by the page's data, not the form: a successful
 * save brings the new revisions.
 */
export function EntryRevisions<Key extends string>({
  keys,
  fields,
  entries,
}: {
  keys: readonly Key[];
  fields: Record<Key, { getFieldset(): { revision: { name: string } } }>;
  entries: Record<Key, { revision: number }>;
}) {
  return keys.map((key) => (
    <input key={key} type="hidden" name={fields[key].getFieldset().revision.name} value={entries[key].revision} />
  ));
}
