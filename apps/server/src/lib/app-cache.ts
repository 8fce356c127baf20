import type { FastifyInstance } from 'fastify';
import type { ChangeTopic } from './change-feed';

/**
 * A value each app server keeps for hot paths (every purchase) instead of a query: loaded on first
 * use, and loaded again after PostgreSQL's change notice on `topic` (lib/change-feed.ts), or after
 * `ttlMs` in case a notice was lost while the listening connection was down. A failed load is not kept.
 */
export function appCache<T>(topic: ChangeTopic, load: (app: FastifyInstance) => Promise<T>, ttlMs = 60_000): (app: FastifyInstance) => Promise<T> {
  const caches = new WeakMap<FastifyInstance, { entry: { value: Promise<T>; at: number } | null }>();
  return (app) => {
    let cache = caches.get(app);
    if (!cache) {
      const created: { entry: { value: Promise<T>; at: number } | null } = { entry: null };
      app.changes.on(topic, () => {
        created.entry = null;
      });
      caches.set(app, created);
      cache = created;
    }
    const held = cache.entry;
    if (held && Date.now() - held.at < ttlMs) return held.value;
    const entry = { value: load(app), at: Date.now() };
    cache.entry = entry;
    const owner = cache;
    entry.value.catch(() => {
      if (owner.entry === entry) owner.entry = null;
    });
    return entry.value;
  };
}
