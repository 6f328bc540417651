/**
 * The in-process snapshot cache of published content: one entry per key, loaded on
 * first use and kept until invalidate(). A load that an invalidation overtook is
 * handed to its waiting callers but never kept. While `bypass` is on (PostgreSQL
 * listener disconnected: another instance's write could go unnoticed) every read
 * goes to the database and version() changes at each call.
 */
export interface SnapshotCache {
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  invalidate(): void;
  version(): number;
  setBypass(bypass: boolean): void;
  /** Number of loads run so far (for tests and the benchmark). */
  loads(): number;
}

export function createSnapshotCache(): SnapshotCache {
  let entries = new Map<string, Promise<unknown>>();
  let version = 1;
  let bypass = false;
  let loads = 0;

  function load<T>(loader: () => Promise<T>): Promise<T> {
    loads++;
    return loader().then(deepFreeze);
  }

  return {
    get<T>(key: string, loader: () => Promise<T>): Promise<T> {
      if (bypass) return load(loader);
      const cached = entries.get(key);
      if (cached) return cached as Promise<T>;
      const generation = entries;
      const pending = load(loader);
      generation.set(key, pending);
      pending.catch(() => {
        if (generation.get(key) === pending) generation.delete(key);
      });
      return pending;
    },
    invalidate() {
      entries = new Map();
      version++;
    },
    version() {
      if (bypass) version++;
      return version;
    },
    setBypass(value) {
      bypass = value;
      entries = new Map();
      version++;
    },
    loads: () => loads,
  };
}

/** Snapshots are shared by every request: freezing them makes an accidental mutation fail loudly. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
