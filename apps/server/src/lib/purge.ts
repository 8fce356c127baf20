import { and, isNotNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { idempotencyKeys, notifications, rateLimits } from '../db/schema';
import { purgeExpiredSessions } from './session';

/**
 * Scheduled purges (issue 17, operations): tables that grew forever are trimmed by recurring jobs,
 * each run once per period across all app servers (lib/jobs.ts `schedule`).
 */
export const PURGE_JOBS = {
  sessions: 'purge.sessions',
  notifications: 'purge.notifications',
  rateLimits: 'purge.rate_limits',
  idempotencyKeys: 'purge.idempotency_keys',
} as const;

/** Read notifications are kept this long, unread ones until they are read. */
export const KEEP_READ_NOTIFICATIONS_DAYS = 90;
/** An Idempotency-Key replays its answer this long; a retry later than that runs again. */
export const KEEP_IDEMPOTENCY_KEYS_HOURS = 24;

const HOUR = 3600;

export async function purgeReadNotifications(db: Db): Promise<number> {
  const gone = await db
    .delete(notifications)
    .where(and(isNotNull(notifications.readAt), lt(notifications.readAt, sql`now() - make_interval(days => ${KEEP_READ_NOTIFICATIONS_DAYS})`)))
    .returning({ id: notifications.id });
  return gone.length;
}

/** A rate-limit window that has ended counts from zero anyway (lib/rate-limit.ts), so its row can go. */
export async function purgeStaleRateLimits(db: Db): Promise<number> {
  const gone = await db.delete(rateLimits).where(lt(rateLimits.resetAt, sql`now()`)).returning({ key: rateLimits.key });
  return gone.length;
}

export async function purgeOldIdempotencyKeys(db: Db): Promise<number> {
  const gone = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${KEEP_IDEMPOTENCY_KEYS_HOURS})`))
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}

/** Registers the purge jobs and their schedules on the app's queue. */
export function registerPurgeJobs(app: FastifyInstance) {
  const purges: [string, number, (db: Db) => Promise<unknown>][] = [
    [PURGE_JOBS.sessions, HOUR, purgeExpiredSessions],
    [PURGE_JOBS.notifications, 24 * HOUR, purgeReadNotifications],
    [PURGE_JOBS.rateLimits, HOUR, purgeStaleRateLimits],
    [PURGE_JOBS.idempotencyKeys, HOUR, purgeOldIdempotencyKeys],
  ];
  for (const [name, everySeconds, purge] of purges) {
    app.jobs.register(name, async (_payload, ctx) => {
      const count = await purge(ctx.db);
      if (typeof count === 'number' && count > 0) ctx.log.info({ count }, 'purged');
    });
    app.jobs.schedule(name, everySeconds);
  }
}
