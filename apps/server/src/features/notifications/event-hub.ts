import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { EVENTS_CHANNEL, type EventSignal } from './notifications';

export type EventListener = (signal: EventSignal) => void;

export type EventHub = {
  /** Calls `listener` for every event addressed to `userId`; returns the unsubscribe. */
  subscribe(userId: number, listener: EventListener): () => void;
  /** Stops listening (on shutdown). */
  close(): Promise<void>;
  /** Open subscriptions on this server (tests, the bench). */
  size(): number;
};

/**
 * One LISTEN per app server on `atelier_events`, fanned out in memory to the event streams of the
 * addressed user. Any server's NOTIFY reaches every server, which is how several app servers behind
 * a load balancer deliver to whichever one holds the reader's stream.
 */
export async function createEventHub(database: Database, log: FastifyBaseLogger): Promise<EventHub> {
  const byUser = new Map<number, Set<EventListener>>();
  const deliver = (payload: string) => {
    let signal: EventSignal;
    try {
      signal = JSON.parse(payload) as EventSignal;
    } catch {
      return;
    }
    for (const listener of byUser.get(signal.userId) ?? []) {
      try {
        listener(signal);
      } catch (err) {
        log.warn({ err }, 'an event stream failed to take an event');
      }
    }
  };
  // After a lost LISTEN connection, streams are told to refetch (messages may have been missed).
  const unlisten = await database.listen(EVENTS_CHANNEL, deliver, () => {
    for (const [userId, set] of byUser) for (const l of set) l({ userId, kind: 'resync', chatId: null, notificationId: null });
  });
  return {
    subscribe(userId, listener) {
      const set = byUser.get(userId) ?? new Set();
      set.add(listener);
      byUser.set(userId, set);
      return () => {
        set.delete(listener);
        if (!set.size) byUser.delete(userId);
      };
    },
    async close() {
      byUser.clear();
      await unlisten();
    },
    size: () => [...byUser.values()].reduce((n, s) => n + s.size, 0),
  };
}
