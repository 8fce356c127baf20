import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerPerson } from '../../test/accounts';
import { useTestApp } from '../../test/test-app';
import { idempotencyKeys, jobs, notifications, rateLimits, sessions } from '../db/schema';
import { PURGE_JOBS } from './purge';

/** Issue 17, operations: sessions, read notifications, rate-limit windows and idempotency keys are trimmed by scheduled jobs. */
const t = useTestApp({ registration: true });
let userId: number;
beforeAll(async () => {
  userId = (await registerPerson(t.app)).id;
});

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
const DAY = 86_400;

/** The app's own queue runs what its schedules have made due (as a restarted server would at once). */
async function runSchedules() {
  await t.app.db.execute(sql`update job_schedules set next_run_at = now() - interval '1 second'`);
  await t.app.jobs.runDue();
}

describe('operations: scheduled purges', () => {
  it('operations: every purge is on the schedule', async () => {
    await t.app.jobs.runDue();
    const ran = await t.app.db
      .select({ name: jobs.name, state: jobs.state })
      .from(jobs)
      .where(inArray(jobs.name, Object.values(PURGE_JOBS)));
    expect(ran.map((j) => j.name).sort()).toEqual(Object.values(PURGE_JOBS).sort());
    expect(ran.every((j) => j.state === 'done')).toBe(true);
  });

  it('operations: expired and idle sessions are purged, live ones kept', async () => {
    const base = { userId, csrfToken: 'x', userAgent: 'test' };
    await t.app.db.insert(sessions).values([
      { ...base, id: 'purge-expired', expiresAt: ago(60), lastSeenAt: ago(120) },
      { ...base, id: 'purge-idle', expiresAt: new Date(Date.now() + DAY * 1000), lastSeenAt: ago(365 * DAY) },
      { ...base, id: 'purge-live', expiresAt: new Date(Date.now() + DAY * 1000), lastSeenAt: new Date() },
    ]);
    await runSchedules();
    const left = await t.app.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(inArray(sessions.id, ['purge-expired', 'purge-idle', 'purge-live']));
    expect(left.map((s) => s.id)).toEqual(['purge-live']);
  });

  it('operations: notifications read more than 90 days ago are purged; unread and recently read ones stay', async () => {
    const rows = await t.app.db
      .insert(notifications)
      .values([
        { userId, kind: 'test', text: 'old read', readAt: ago(91 * DAY), createdAt: ago(100 * DAY) },
        { userId, kind: 'test', text: 'recently read', readAt: ago(10 * DAY), createdAt: ago(100 * DAY) },
        { userId, kind: 'test', text: 'old unread', createdAt: ago(200 * DAY) },
      ])
      .returning({ id: notifications.id });
    await runSchedules();
    const left = await t.app.db
      .select({ text: notifications.text })
      .from(notifications)
      .where(
        inArray(
          notifications.id,
          rows.map((r) => r.id),
        ),
      );
    expect(left.map((n) => n.text).sort()).toEqual(['old unread', 'recently read']);
  });

  it('operations: ended rate-limit windows are purged, running ones kept', async () => {
    await t.app.db.insert(rateLimits).values([
      { key: 'purge:ended', count: 20, resetAt: ago(60) },
      { key: 'purge:running', count: 3, resetAt: new Date(Date.now() + 600_000) },
    ]);
    await runSchedules();
    const left = await t.app.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(inArray(rateLimits.key, ['purge:ended', 'purge:running']));
    expect(left.map((r) => r.key)).toEqual(['purge:running']);
  });

  it('operations: idempotency keys older than 24 hours are purged, recent ones kept', async () => {
    await t.app.db.insert(idempotencyKeys).values([
      { userId, key: 'purge-old', fingerprint: 'f', createdAt: ago(25 * 3600) },
      { userId, key: 'purge-recent', fingerprint: 'f', createdAt: ago(3600) },
    ]);
    await runSchedules();
    const left = await t.app.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
    expect(left.map((k) => k.key)).toEqual(['purge-recent']);
  });
});
