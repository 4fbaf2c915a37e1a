/** An answer kept for a while, and when the upstream call that produced it began. */
export interface Kept<V> {
  value: V;
  /** Epoch ms the call began: the answer's age counts from then. */
  fetchedAt: number;
}

interface Entry<V> extends Kept<V> {
  /** What else must be unchanged for the entry to serve (the vault the answer was scrubbed with). */
  version: string;
}

interface Flight<V> {
  version: string;
  promise: Promise<Kept<V>>;
}

/**
 * Answers kept for `ttlMs` under keys of the form `<scope>|<rest>`, where a scope (a tenant's
 * service) is what a write drops at once. Identical reads in flight share one call; a read whose
 * call began before a drop of its scope is answered but not kept, and later readers do not join it.
 * Unlike `RefreshingCache`, nothing is renewed in the background: each call spends upstream budget.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly flights = new Map<string, Flight<V>>();
  /** Drops per scope: a call that began under an older count is not kept. */
  private readonly drops = new Map<string, number>();
  private dropCount = 0;

  constructor(
    private readonly ttlMs: number,
    /** Past this many entries the cache starts over, bounding its memory. */
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The kept answer for `key` made under `version`, else the one being fetched, else a new fetch.
   * Failures are shared by the readers waiting on them and never kept. A reader that needs a fresher
   * answer than the lifetime (`maxAgeMs`) makes a new call, which then serves the others.
   */
  read(
    scope: string,
    key: string,
    version: string,
    fetch: () => Promise<V>,
    maxAgeMs = this.ttlMs,
  ): Promise<Kept<V>> {
    return this.readKept(
      scope,
      key,
      version,
      () => {
        const fetchedAt = this.now();
        return fetch().then((value) => ({ value, fetchedAt }));
      },
      maxAgeMs,
    );
  }

  /**
   * As `read`, for a fetch that says when its answer was made (one kept elsewhere, already aged):
   * the entry serves for what remains of its lifetime.
   */
  readKept(
    scope: string,
    key: string,
    version: string,
    fetch: () => Promise<Kept<V>>,
    maxAgeMs = this.ttlMs,
  ): Promise<Kept<V>> {
    const full = `${scope}|${key}`;
    const entry = this.entries.get(full);
    if (entry !== undefined) {
      if (entry.version === version && this.now() - entry.fetchedAt < Math.min(this.ttlMs, maxAgeMs)) {
        return Promise.resolve(entry);
      }
      this.entries.delete(full);
    }
    const flight = this.flights.get(full);
    if (flight !== undefined && flight.version === version) return flight.promise;

    const dropsAtStart = this.drops.get(scope) ?? 0;
    const promise = fetch().then(
      (kept) => {
        if (this.flights.get(full)?.promise === promise) this.flights.delete(full);
        if (this.ttlMs > 0 && (this.drops.get(scope) ?? 0) === dropsAtStart) {
          if (this.entries.size >= this.maxEntries) this.entries.clear();
          this.entries.set(full, { ...kept, version });
        }
        return kept;
      },
      (error: unknown) => {
        if (this.flights.get(full)?.promise === promise) this.flights.delete(full);
        throw error;
      },
    );
    this.flights.set(full, { version, promise });
    return promise;
  }

  /** Forgets what `scope` holds, and keeps nothing of calls of it already running. */
  drop(scope: string): void {
    if (this.drops.size >= this.maxEntries) {
      // Starting over forgets every count, so nothing fetched under an old one may be kept.
      this.drops.clear();
      this.entries.clear();
      this.flights.clear();
    }
    this.drops.set(scope, ++this.dropCount);
    const prefix = `${scope}|`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
    for (const key of this.flights.keys()) if (key.startsWith(prefix)) this.flights.delete(key);
  }

  /** The keys held now (for tests: they name places, never values). */
  keys(): string[] {
    return [...this.entries.keys(), ...this.flights.keys()];
  }
}
