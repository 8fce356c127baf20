import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';

/** The channel that triggers (migration 0006) notify when shared, cached data changes. */
export const CHANGES_CHANNEL = 'atelier_changes';

/** What changed: each cache listens for its own topic; `*` (after a reconnect) means anything. */
export type ChangeTopic = 'catalog' | 'settings' | 'site' | '*';

export type ChangeFeed = {
  on(topic: ChangeTopic, handler: () => void): void;
  close(): Promise<void>;
};

/**
 * Invalidation that reaches every app server: writes notify through PostgreSQL (NOTIFY is sent on
 * commit, so a rolled-back write invalidates nothing), and each server clears what it keeps.
 */
export async function createChangeFeed(database: Database, log: FastifyBaseLogger): Promise<ChangeFeed> {
  const handlers = new Map<string, Set<() => void>>();
  const fire = (topic: string) => {
    const targets = topic === '*' ? [...handlers.values()].flatMap((s) => [...s]) : [...(handlers.get(topic) ?? []), ...(handlers.get('*') ?? [])];
    for (const handler of targets) {
      try {
        handler();
      } catch (err) {
        log.error({ err }, 'cache invalidation failed');
      }
    }
  };
  const unlisten = await database.listen(CHANGES_CHANNEL, fire, () => fire('*'));
  return {
    on(topic, handler) {
      const set = handlers.get(topic) ?? new Set();
      set.add(handler);
      handlers.set(topic, set);
    },
    close: unlisten,
  };
}
