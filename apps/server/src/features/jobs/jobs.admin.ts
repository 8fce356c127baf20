import { ADMIN_JOBS_PER_PAGE, type AdminJob, type AdminJobState, type AdminJobsPage, type AdminJobsQuery } from '@atelier/shared';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { jobs } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';

type JobRow = typeof jobs.$inferSelect;
const STATE_OF: Record<string, AdminJobState> = { pending: 'queued', running: 'running', failed: 'failed' };
const DB_STATE = { queued: 'pending', running: 'running', failed: 'failed' } as const;
const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export const toAdminJob = (row: JobRow): AdminJob => ({
  id: row.id,
  name: row.name,
  state: STATE_OF[row.state]!,
  attempts: row.attempts,
  last_error: row.lastError,
  run_at: seconds(row.runAt)!,
  timeout_at: seconds(row.timeoutAt),
  created_at: seconds(row.createdAt)!,
  finished_at: seconds(row.finishedAt),
});

/** Jobs waiting, running or failed (finished ones are not listed), newest first, a page at a time. */
export async function listJobs(db: Db, query: AdminJobsQuery): Promise<AdminJobsPage> {
  const where = query.state ? eq(jobs.state, DB_STATE[query.state]) : inArray(jobs.state, ['pending', 'running', 'failed']);
  const rows = await db
    .select()
    .from(jobs)
    .where(where)
    .orderBy(desc(jobs.id))
    .limit(ADMIN_JOBS_PER_PAGE)
    .offset((query.page - 1) * ADMIN_JOBS_PER_PAGE);
  const [total] = await db.select({ n: count() }).from(jobs).where(where);
  return { jobs: rows.map(toAdminJob), page: query.page, per_page: ADMIN_JOBS_PER_PAGE, total: Number(total?.n ?? 0) };
}

/**
 * Staff retry: a failed job gets a fresh set of attempts and runs as soon as a server polls; a queued
 * one is brought forward to now. A running job is a server's: 409.
 */
export async function retryJob(db: Db, id: number): Promise<{ before: JobRow; after: JobRow }> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(jobs).where(eq(jobs.id, id)).for('update');
    if (!before) throw notFound('This job does not exist.');
    if (before.state === 'running') throw new AppError('CONFLICT', 'This job is running now; it can be retried once it has failed.');
    if (before.state === 'done') throw new AppError('CONFLICT', 'This job has finished; there is nothing to retry.');
    const [after] = await tx
      .update(jobs)
      .set({ state: 'pending', runAt: sql`now()`, finishedAt: null, ...(before.state === 'failed' ? { attempts: 0 } : {}) })
      .where(and(eq(jobs.id, id), eq(jobs.state, before.state)))
      .returning();
    return { before, after: after! };
  });
}
