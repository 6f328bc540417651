import { Conflict, NotFound } from "../errors.ts";

/**
 * Optimistic concurrency for the admin's edits. Every editable record carries a
 * `revision`, raised by each change; a save names the revision its form was opened at.
 * A stale save is refused instead of overwriting someone else's change, except when
 * the record already holds exactly what is being saved: a double-click or a
 * resubmitted form then succeeds without writing.
 */

/** What the messages call each kind of editable record. */
export type EditedThing =
  | "chapter"
  | "section"
  | "tip"
  | "resource"
  | "certification"
  | "skill"
  | "timeline event"
  | "home page"
  | "about content"
  | "settings";

export function goneError(thing: EditedThing): NotFound {
  return new NotFound(thing === "settings" ? "These settings no longer exist." : `This ${thing} no longer exists.`);
}

function staleError(thing: EditedThing): Conflict {
  const changed =
    thing === "settings"
      ? "These settings were changed by someone else since you opened them."
      : `This ${thing} was changed by someone else since you opened it.`;
  return new Conflict(`${changed} Reload to see the latest version.`);
}

/** True when every defined value equals the row's value of the same column. */
export function holdsValues(row: object, values: Record<string, unknown>): boolean {
  const stored = row as Record<string, unknown>;
  return Object.entries(values).every(([column, value]) => value === undefined || stored[column] === value);
}

export interface RevisionedSave<Row extends { revision: number }> {
  /** The record as stored now; undefined when it does not exist. */
  read(): Promise<Row | undefined>;
  /** Whether the stored record already holds what is being saved. */
  holds(row: Row): boolean;
  /**
   * The owner's conditional write, `… revision = revision + 1 … where … and revision = ?`
   * with the expected revision, given the record as read; undefined when no row matched
   * (someone else's change committed in between).
   */
  write(current: Row): Promise<Row | undefined>;
}

/**
 * Saves one record at the revision the editor saw. Returns the record as it now is and,
 * when it was written, as it was before (null when nothing was written: the record
 * already held what is being saved, at any revision); throws
 * NotFound when it is gone, Conflict when it changed since. A write that lost a race is
 * judged again on a fresh read, so two identical saves sent at once both succeed.
 */
export async function saveAtRevision<Row extends { revision: number }>(
  thing: EditedThing,
  expected: number,
  save: RevisionedSave<Row>,
): Promise<{ row: Row; before: Row | null }> {
  let current = await save.read();
  // A save that changes nothing writes nothing: a new revision would refuse the real
  // change of another editor who opened the record at this one.
  if (current?.revision === expected && !save.holds(current)) {
    const written = await save.write(current);
    if (written) return { row: written, before: current };
    current = await save.read();
  }
  if (!current) throw goneError(thing);
  if (save.holds(current)) return { row: current, before: null };
  throw staleError(thing);
}

/** The columns whose value a write changed, for the audit log. */
export function changedColumns(before: object, after: object, columns: Iterable<string>): string[] {
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  return [...columns].filter((column) => old[column] !== now[column]);
}
