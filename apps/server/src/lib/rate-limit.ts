import { msg, parseMessage } from '@atelier/shared';
import { eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client';
import { rateLimits } from '../db/schema';
import { AppError } from './app-error';

export type Limit = { limit: number; windowSeconds: number };

/** `what` was too much, and when to try again; coded (shared messages.ts) when `what` is. */
function retryMessage(seconds: number, what: string) {
  const minutes = seconds >= 90;
  const count = minutes ? Math.ceil(seconds / 60) : seconds;
  if (parseMessage(what)) return msg(minutes ? 'rate.retry_minutes' : 'rate.retry_seconds', { what, n: count });
  return `${what} Please try again in ${count} ${minutes ? 'minutes' : 'seconds'}.`;
}

/**
 * A time for the SQL below. Windows run on the app's clock (Date), as sessions do, so every check here
 * agrees with the Retry-After it computes, and a test moves time on with vi.setSystemTime.
 */
const at = (time: Date) => sql`${time.toISOString()}::timestamptz`;

/**
 * Counts one hit against `key` in a fixed window, atomically in PostgreSQL (shared by all app
 * servers). Returns the count so far and the seconds until the window resets.
 */
export async function hitRateLimit(db: Db, key: string, windowSeconds: number): Promise<{ count: number; retryAfter: number }> {
  const now = new Date();
  const result = await db.execute<{ count: number; reset_at: string | Date }>(sql`
    insert into rate_limits (key, count, reset_at) values (${key}, 1, ${at(new Date(now.getTime() + windowSeconds * 1000))})
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= ${at(now)} then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= ${at(now)} then excluded.reset_at else rate_limits.reset_at end
    returning count, reset_at`);
  const row = rowsOf<{ count: number; reset_at: string | Date }>(result)[0]!;
  const retryAfter = Math.max(1, Math.ceil((new Date(row.reset_at).getTime() - now.getTime()) / 1000));
  return { count: Number(row.count), retryAfter };
}

/** Hits `key` and throws a 429 (with Retry-After) once more than `limit` hits fall in the window. */
export async function enforceRateLimit(db: Db, key: string, { limit, windowSeconds }: Limit, what = msg('rate.requests')) {
  const { count, retryAfter } = await hitRateLimit(db, key, windowSeconds);
  if (count > limit) throw new AppError('RATE_LIMITED', retryMessage(retryAfter, what), undefined, { 'retry-after': String(retryAfter) });
}

/** Throws a 429 when `key` already reached `limit` in its window, without counting a hit (login checks). */
export async function assertUnderLimit(db: Db, key: string, limit: number, what = msg('rate.attempts')) {
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key)).limit(1);
  if (!row || row.resetAt.getTime() <= Date.now() || row.count < limit) return;
  const retryAfter = Math.max(1, Math.ceil((row.resetAt.getTime() - Date.now()) / 1000));
  throw new AppError('RATE_LIMITED', retryMessage(retryAfter, what), undefined, { 'retry-after': String(retryAfter) });
}

/**
 * Takes back one hit counted against `key` in its current window: a sign-in is counted before the
 * password is checked (so parallel guesses cannot slip past), and one that succeeds is no failure.
 */
export async function releaseRateLimitHit(db: Db, keys: string[]) {
  if (!keys.length) return;
  await db.execute(
    sql`update rate_limits set count = greatest(count - 1, 0) where key in (${sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    )}) and reset_at > ${at(new Date())}`,
  );
}

export async function clearRateLimit(db: Db, key: string) {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}
