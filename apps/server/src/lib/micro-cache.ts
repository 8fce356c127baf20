/**
 * A tiny in-process cache for public answers that every visitor shares (catalogue pages): a few
 * seconds of reuse absorbs bursts on popular pages without a database round trip, concurrent misses
 * for one key share a single load, and a failed load is never stored. Entries are bounded in number
 * and age; several app servers each keep their own, so staleness is bounded by `ttlMs`.
 */
export type MicroCache<T> = {
  get(key: string, load: () => Promise<T>): Promise<T>;
  clear(): void;
  readonly size: number;
};

export function createMicroCache<T>(opts: { ttlMs: number; maxEntries: number; now?: () => number }): MicroCache<T> {
  const now = opts.now ?? Date.now;
  const entries = new Map<string, { value: T; expiresAt: number }>();
  const loading = new Map<string, Promise<T>>();

  return {
    async get(key, load) {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now()) return hit.value;
      if (hit) entries.delete(key);
      const pending = loading.get(key);
      if (pending) return pending;
      const promise = load()
        .then((value) => {
          // Map keeps insertion order: drop the oldest entry when full.
          if (entries.size >= opts.maxEntries) entries.delete(entries.keys().next().value as string);
          entries.set(key, { value, expiresAt: now() + opts.ttlMs });
          return value;
        })
        .finally(() => loading.delete(key));
      loading.set(key, promise);
      return promise;
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
