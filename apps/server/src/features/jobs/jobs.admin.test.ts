import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { auditLog, jobs } from '../../db/schema';
import { enqueue } from '../../lib/jobs';

/** Issue 17, operations: the job queue in the back office. */
const t = useTestApp({ registration: true });
let staff: TestClient;
let user: TestClient;
let staffId: number;
let runs = 0;
let failing = true;
beforeAll(async () => {
  const s = await registerStaff(t.app);
  staff = s.client;
  staffId = s.id;
  user = (await registerPerson(t.app)).client;
  t.app.jobs.register(
    'test.admin-flaky',
    async () => {
      runs += 1;
      if (failing) throw new Error('the provider answered 503');
    },
    { attempts: 1 },
  );
});

type Job = { id: number; name: string; state: string; attempts: number; last_error: string | null };

describe('operations: back-office job queue', () => {
  it('operations: staff see queued, running and failed jobs with the last error, page by page, and retry a failed one', async () => {
    const failedId = (await enqueue(t.app.db, 'test.admin-flaky', {}))!;
    await t.app.jobs.runDue();
    const queuedId = (await enqueue(t.app.db, 'test.admin-later', {}, { runAt: new Date(Date.now() + 3_600_000) }))!;

    const all = await staff.get('/api/admin/jobs');
    expect(all.statusCode).toBe(200);
    const page = all.json().payload as { jobs: Job[]; page: number; per_page: number; total: number };
    expect(page).toMatchObject({ page: 1, per_page: 50 });
    expect(page.jobs.find((j) => j.id === failedId)).toMatchObject({
      name: 'test.admin-flaky',
      state: 'failed',
      attempts: 1,
      last_error: 'the provider answered 503',
    });
    expect(page.jobs.find((j) => j.id === queuedId)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(page.jobs.every((j) => ['queued', 'running', 'failed'].includes(j.state))).toBe(true);

    const failedOnly = (await staff.get('/api/admin/jobs?state=failed')).json().payload as { jobs: Job[]; total: number };
    expect(failedOnly.jobs.map((j) => j.id)).toEqual([failedId]);
    expect(failedOnly.total).toBe(1);
    // Pages of 50.
    for (let i = 0; i < 55; i++) await enqueue(t.app.db, 'test.admin-later', { i }, { runAt: new Date(Date.now() + 3_600_000) });
    const second = (await staff.get('/api/admin/jobs?state=queued&page=2')).json().payload as { jobs: Job[]; total: number };
    expect(second.total).toBeGreaterThanOrEqual(56); // and the app's own waiting jobs (the deposit sweep)
    expect(second.jobs).toHaveLength(second.total - 50);
    expect((await staff.get('/api/admin/jobs?state=done')).statusCode).toBe(422);
    expect((await staff.get('/api/admin/jobs?page=0')).json().errors.page).toEqual(['The page must be a whole number from 1 to 10000.']);

    failing = false;
    const retried = await staff.post(`/api/admin/jobs/${failedId}/retry`, {});
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ message: 'The job will run again shortly.', payload: { id: failedId, state: 'queued', attempts: 0 } });
    await t.app.jobs.runDue();
    expect(runs).toBe(2);
    expect((await t.app.db.select().from(jobs).where(eq(jobs.id, failedId)))[0]!.state).toBe('done');
    const [audit] = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectId, failedId));
    expect(audit).toMatchObject({ staffId, action: 'job.retry', subjectType: 'job' });

    expect((await staff.post(`/api/admin/jobs/${failedId}/retry`, {})).statusCode).toBe(409); // done: nothing to retry
    expect((await staff.post('/api/admin/jobs/999999999/retry', {})).statusCode).toBe(404);
    // Malformed ids and pages are 422 with the field's message, never a 500.
    for (const bad of ['abc', '9223372036854775808', '-1', '1.5']) expect((await staff.post(`/api/admin/jobs/${bad}/retry`, {})).statusCode).toBe(422);
    for (const bad of ['abc', '10001', '[1]']) expect((await staff.get(`/api/admin/jobs?page=${encodeURIComponent(bad)}`)).statusCode).toBe(422);
  });

  it('operations: a running job cannot be retried, and a user who is not staff gets 403', async () => {
    const id = (await enqueue(t.app.db, 'test.admin-later', {}))!;
    await t.app.db
      .update(jobs)
      .set({ state: 'running', lockedBy: 'a-server', lockedAt: new Date(), timeoutAt: new Date(Date.now() + 60_000) })
      .where(eq(jobs.id, id));
    const running = await staff.post(`/api/admin/jobs/${id}/retry`, {});
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toBe('This job is running now; it can be retried once it has failed.');
    const list = await user.get('/api/admin/jobs');
    expect(list.statusCode).toBe(403);
    expect(list.json().message).toBe('This action is for moderators only.');
    expect((await user.post(`/api/admin/jobs/${id}/retry`, {})).statusCode).toBe(403);
  });
});
