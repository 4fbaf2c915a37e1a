interface Entry<V> {
  value: V;
  /** When the load that produced it began: its age counts from the data's, not the answer's. */
  loadedAt: number;
}

/**
 * Values loaded on demand (a database lookup) and used for at most `ttlMs` after their load
 * began, so a change made on another replica is seen within that time.
 *
 * Concurrent misses of one key share a single load, and a value used past half its lifetime is
 * loaded again in the background while it keeps being served. Under steady traffic an entry is
 * renewed before it expires, and no request waits on the database for it; with a plain expiring
 * map, every request arriving while the lookup ran made its own (50 at once in a closed loop).
 * A load answering `undefined` (nothing there) is passed on and drops the key. A load is given the
 * value it renews, if any, so that it may keep what has not changed.
 */
export class RefreshingCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loads = new Map<string, Promise<V | undefined>>();

  constructor(
    private readonly ttlMs: number,
    /** Past this many entries the cache starts over, bounding its memory. */
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: (renewed: V | undefined) => Promise<V | undefined>): V | Promise<V | undefined> {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      const age = Date.now() - entry.loadedAt;
      if (age < this.ttlMs) {
        // A failed renewal changes nothing: the entry serves until it expires, then a load that
        // fails is the caller's error.
        if (age >= this.ttlMs / 2) this.load(key, () => load(entry.value)).catch(() => undefined);
        return entry.value;
      }
      return this.load(key, () => load(entry.value));
    }
    return this.load(key, () => load(undefined));
  }

  /** Forgets `key`, and the outcome of a load of it still running, which may predate the change. */
  delete(key: string): void {
    this.entries.delete(key);
    this.loads.delete(key);
  }

  /** Forgets every key that `matches`. */
  deleteWhere(matches: (key: string) => boolean): void {
    for (const key of [...this.entries.keys(), ...this.loads.keys()]) {
      if (matches(key)) this.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
    this.loads.clear();
  }

  private load(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const running = this.loads.get(key);
    if (running !== undefined) return running;
    const loadedAt = Date.now();
    const loading: Promise<V | undefined> = load().then(
      (value) => {
        // Kept only if nothing was forgotten (or started over) while it loaded.
        if (this.loads.get(key) === loading) {
          this.loads.delete(key);
          if (value === undefined) this.entries.delete(key);
          else {
            if (this.entries.size >= this.maxEntries) this.entries.clear();
            this.entries.set(key, { value, loadedAt });
          }
        }
        return value;
      },
      (error: unknown) => {
        if (this.loads.get(key) === loading) this.loads.delete(key);
        throw error;
      },
    );
    this.loads.set(key, loading);
    return loading;
  }
}
