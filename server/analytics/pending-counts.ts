/** Views of one page on one UTC day, not yet added to page_views. */
export interface PendingCount {
  day: string;
  path: string;
  views: number;
}

/**
 * The page view counts held in memory between two writes, by day and then by path. Not
 * by one key joining the two: that key would be a new string, made and hashed for every
 * counted view, a measurable share of the time a cached page's answer takes. The paths
 * come from a memo of counted paths (page-views.ts), so the same string objects, whose
 * hashes V8 keeps, come back on every view of a page.
 */
export class PendingCounts {
  readonly #days = new Map<string, Map<string, PendingCount>>();
  readonly #maxPairs: number;
  #size = 0;

  /** At most `maxPairs` (day, path) pairs are held. */
  constructor(maxPairs: number) {
    this.#maxPairs = maxPairs;
  }

  /** The number of (day, path) pairs held. */
  get size(): number {
    return this.#size;
  }

  /** Adds views to a pair; false, with nothing added, for a new pair when maxPairs are held. */
  add(day: string, path: string, views: number): boolean {
    let paths = this.#days.get(day);
    const held = paths?.get(path);
    if (held) {
      held.views += views;
      return true;
    }
    if (this.#size >= this.#maxPairs) return false;
    if (!paths) {
      paths = new Map();
      this.#days.set(day, paths);
    }
    paths.set(path, { day, path, views });
    this.#size += 1;
    return true;
  }

  /** Every pair held with its views. */
  counts(): PendingCount[] {
    const all: PendingCount[] = [];
    for (const paths of this.#days.values()) all.push(...paths.values());
    return all;
  }
}
