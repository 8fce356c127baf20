import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { jobSchedules, jobs } from '../db/schema';
import { createJobs, enqueue, type Jobs } from './jobs';

/** The real queue on the test database: PGlite by default, PostgreSQL with DATABASE_URL (where workers truly race). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const worker = () => createJobs(t.app.db, t.app.log);
const jobRow = async (id: number) => (await t.app.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
const inSeconds = (s: number) => new Date(Date.now() + s * 1000);

describe('job queue', () => {
  it('runs a job enqueued in a committed transaction, and nothing from a rolled-back one', async () => {
    const w = worker();
    const seen: unknown[] = [];
    w.register<{ n: number }>('test.tx', async (payload) => {
      seen.push(payload);
    });
    await t.app.db
      .transaction(async (tx) => {
        await enqueue(tx, 'test.tx', { n: 1 });
        tx.rollback();
      })
      .catch(() => {});
    await expect(
      t.app.db.transaction(async (tx) => {
        await enqueue(tx, 'test.tx', { n: 2 });
        throw new Error('the order could not be saved');
      }),
    ).rejects.toThrow('could not be saved');
    const id = await t.app.db.transaction(async (tx) => enqueue(tx, 'test.tx', { n: 3 }));

    expect(await w.runDue()).toBe(1);
    expect(seen).toEqual([{ n: 3 }]);
    expect((await jobRow(id!)).state).toBe('done');
    expect(await t.app.db.select().from(jobs).where(eq(jobs.name, 'test.tx'))).toHaveLength(1);
  });

  it('retries a failing job with growing delays and marks it failed after its last attempt', async () => {
    const w = worker();
    let calls = 0;
    w.register(
      'test.flaky',
      async () => {
        calls += 1;
        throw new Error(`provider unavailable (${calls})`);
      },
      { attempts: 3, backoffMs: 60_000 },
    );
    const id = (await enqueue(t.app.db, 'test.flaky', {}))!;

    expect(await w.runDue()).toBe(1);
    let row = await jobRow(id);
    expect(row).toMatchObject({ state: 'pending', attempts: 1, lastError: 'provider unavailable (1)', lockedBy: null });
    expect(row.runAt.getTime() - Date.now()).toBeGreaterThan(50_000);
    expect(row.runAt.getTime() - Date.now()).toBeLessThan(70_000);
    expect(await w.runDue()).toBe(0); // not due before its delay

    expect(await w.runDue({ at: inSeconds(61) })).toBe(1);
    row = await jobRow(id);
    expect(row).toMatchObject({ state: 'pending', attempts: 2, lastError: 'provider unavailable (2)' });
    expect(row.runAt.getTime() - Date.now()).toBeGreaterThan(110_000); // twice the first delay
    expect(row.runAt.getTime() - Date.now()).toBeLessThan(130_000);
    expect(await w.runDue({ at: inSeconds(61) })).toBe(0);

    expect(await w.runDue({ at: inSeconds(3600) })).toBe(1);
    row = await jobRow(id);
    expect(row).toMatchObject({ state: 'failed', attempts: 3, lastError: 'provider unavailable (3)' });
    expect(row.finishedAt).toBeInstanceOf(Date);
    expect(await w.runDue({ at: inSeconds(86_400) })).toBe(0);
    expect(calls).toBe(3);
  });

  it('runs again a job whose server died mid-run, once its lease has passed, without looping forever', async () => {
    const w = createJobs(t.app.db, t.app.log, { leaseMs: 60_000 });
    let runs = 0;
    w.register(
      'test.orphan',
      async () => {
        runs += 1;
      },
      { attempts: 3 },
    );
    const orphan = (await enqueue(t.app.db, 'test.orphan', {}))!;
    const fresh = (await enqueue(t.app.db, 'test.orphan', {}))!;
    const lastTry = (await enqueue(t.app.db, 'test.orphan', {}))!;
    const claimed = (id: number, minutesAgo: number, attempts: number) =>
      t.app.db
        .update(jobs)
        .set({ state: 'running', attempts, lockedBy: 'dead-server', lockedAt: new Date(Date.now() - minutesAgo * 60_000) })
        .where(eq(jobs.id, id));
    await claimed(orphan, 5, 1);
    await claimed(fresh, 0, 1); // still within its lease: its server may well be working on it
    await claimed(lastTry, 5, 3);

    expect(await w.runDue()).toBe(2);
    expect(runs).toBe(1);
    expect(await jobRow(orphan)).toMatchObject({ state: 'done', attempts: 2 });
    expect(await jobRow(fresh)).toMatchObject({ state: 'running', lockedBy: 'dead-server' });
    expect(await jobRow(lastTry)).toMatchObject({ state: 'failed', attempts: 4 });
  });

  it('runs a job given a later start only from then on', async () => {
    const w = worker();
    let runs = 0;
    w.register('test.later', async () => {
      runs += 1;
    });
    await enqueue(t.app.db, 'test.later', {}, { runAt: inSeconds(3600) });
    expect(await w.runDue()).toBe(0);
    expect(await w.runDue({ at: inSeconds(3601) })).toBe(1);
    expect(runs).toBe(1);
  });

  it('keeps one waiting job per singleton key', async () => {
    const w = worker();
    const seen: unknown[] = [];
    w.register('test.digest', async (payload) => {
      seen.push(payload);
    });
    const first = await enqueue(t.app.db, 'test.digest', { v: 1 }, { singletonKey: 'user:7' });
    expect(first).toBeTypeOf('number');
    expect(await enqueue(t.app.db, 'test.digest', { v: 2 }, { singletonKey: 'user:7' })).toBeNull();
    expect(await enqueue(t.app.db, 'test.digest', { v: 3 }, { singletonKey: 'user:8' })).toBeTypeOf('number');
    expect(await w.runDue()).toBe(2);
    // Once it has run, the key is free again.
    expect(await enqueue(t.app.db, 'test.digest', { v: 4 }, { singletonKey: 'user:7' })).toBeTypeOf('number');
    expect(await w.runDue()).toBe(1);
    expect(seen).toEqual([{ v: 1 }, { v: 3 }, { v: 4 }]);
  });

  it('never runs the same job twice when several workers race for the queue', async () => {
    const runs = new Map<number, number>();
    const workers: Jobs[] = Array.from({ length: 4 }, () => {
      const w = worker();
      w.register<{ n: number }>('test.race', async ({ n }) => {
        runs.set(n, (runs.get(n) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      });
      return w;
    });
    const ids = await t.app.db.transaction(async (tx) => {
      const out: number[] = [];
      for (let n = 0; n < 120; n++) out.push((await enqueue(tx, 'test.race', { n }))!);
      return out;
    });

    const counts = await Promise.all(workers.map((w) => w.runDue()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(120);
    expect(runs.size).toBe(120);
    expect([...runs.values()].every((c) => c === 1)).toBe(true);
    const rows = await t.app.db.select({ state: jobs.state, attempts: jobs.attempts }).from(jobs).where(inArray(jobs.id, ids));
    expect(rows.every((r) => r.state === 'done' && r.attempts === 1)).toBe(true);
  });

  it('polls on several servers at once and stops only after the running job has finished', async () => {
    const runs = new Map<number, number>();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const slowStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    let slowOn!: Jobs;
    const servers = Array.from({ length: 3 }, () => {
      const w = worker();
      w.register<{ n: number }>('test.poll', async ({ n }) => {
        runs.set(n, (runs.get(n) ?? 0) + 1);
      });
      w.register('test.slow', async () => {
        slowOn = w;
        started();
        await gate;
      });
      return w;
    });
    for (const w of servers) w.start({ intervalMs: 10 });
    for (let n = 0; n < 30; n++) await enqueue(t.app.db, 'test.poll', { n });
    const slowId = (await enqueue(t.app.db, 'test.slow', {}))!;

    await slowStarted;
    await expect.poll(() => runs.size, { timeout: 10_000 }).toBe(30);
    expect([...runs.values()].every((c) => c === 1)).toBe(true);

    let stopped = false;
    const stopping = slowOn.stop().then(() => {
      stopped = true;
    });
    // The servers with nothing running stop once their poll is over; the one running the slow job waits for it.
    await Promise.all(servers.filter((w) => w !== slowOn).map((w) => w.stop()));
    expect(stopped).toBe(false);
    expect((await jobRow(slowId)).state).toBe('running');
    release();
    await stopping;
    expect((await jobRow(slowId)).state).toBe('done');

    // Stopped servers take nothing new: a server started now gets the next job, and none of them does.
    const late = (await enqueue(t.app.db, 'test.poll', { n: 99 }))!;
    const fresh = worker();
    const ranOnFresh: number[] = [];
    fresh.register<{ n: number }>('test.poll', async ({ n }) => {
      ranOnFresh.push(n);
    });
    fresh.start({ intervalMs: 10 });
    try {
      await expect.poll(() => ranOnFresh, { timeout: 10_000 }).toEqual([99]);
    } finally {
      await fresh.stop();
    }
    expect(runs.has(99)).toBe(false);
    expect((await jobRow(late)).state).toBe('done');
  });

  it('operations: an attempt past its own timeout is abandoned and retried, and failed (with onFailed) after the last', async () => {
    const w = worker();
    const aborted: boolean[] = [];
    const failed: string[] = [];
    w.register(
      'test.hangs',
      (_payload, ctx) =>
        new Promise<void>((_, reject) => {
          // A handler that never finishes by itself; the timeout aborts its signal.
          ctx.signal.addEventListener('abort', () => {
            aborted.push(true);
            reject(ctx.signal.reason);
          });
        }),
      {
        attempts: 2,
        backoffMs: 60_000,
        timeoutMs: 100,
        onFailed: async (_payload, ctx) => {
          failed.push(ctx.error);
        },
      },
    );
    const id = (await enqueue(t.app.db, 'test.hangs', {}))!;
    expect(await w.runDue()).toBe(1);
    expect(await jobRow(id)).toMatchObject({ state: 'pending', attempts: 1, lastError: 'The job ran past its timeout (0 s).', timeoutAt: null });
    expect(await w.runDue({ at: inSeconds(120) })).toBe(1);
    expect(await jobRow(id)).toMatchObject({ state: 'failed', attempts: 2 });
    expect(aborted).toHaveLength(2);
    expect(failed).toEqual(['The job ran past its timeout (0 s).']);
  });

  it('operations: a job left running past its timeout (its server died) is retried, whatever the default lease', async () => {
    const w = worker(); // default timeout 15 minutes
    let runs = 0;
    w.register(
      'test.short',
      async () => {
        runs += 1;
      },
      { timeoutMs: 30_000 },
    );
    const stale = (await enqueue(t.app.db, 'test.short', {}))!;
    const fresh = (await enqueue(t.app.db, 'test.short', {}))!;
    const claimedAgo = (id: number, secondsAgo: number) =>
      t.app.db
        .update(jobs)
        .set({ state: 'running', attempts: 1, lockedBy: 'dead-server', lockedAt: inSeconds(-secondsAgo), timeoutAt: inSeconds(30 - secondsAgo) })
        .where(eq(jobs.id, id));
    await claimedAgo(stale, 60); // its 30 s are over, long before the 15-minute default
    await claimedAgo(fresh, 5);
    expect(await w.runDue()).toBe(1);
    expect(runs).toBe(1);
    expect(await jobRow(stale)).toMatchObject({ state: 'done', attempts: 2 });
    expect(await jobRow(fresh)).toMatchObject({ state: 'running', lockedBy: 'dead-server' });
    // A claim records the attempt's own deadline.
    let seenTimeout: Date | null = null;
    const w2 = worker();
    w2.register(
      'test.deadline',
      async (_p, ctx) => {
        seenTimeout = (await jobRow(ctx.jobId)).timeoutAt;
      },
      { timeoutMs: 45_000 },
    );
    await enqueue(t.app.db, 'test.deadline', {});
    await w2.runDue();
    expect(seenTimeout!.getTime() - Date.now()).toBeGreaterThan(30_000);
    expect(seenTimeout!.getTime() - Date.now()).toBeLessThan(46_000);
  });

  it('operations: a schedule runs once per period across two app servers on one database', async () => {
    let runs = 0;
    const servers = [worker(), worker()];
    for (const w of servers) {
      w.register('test.nightly', async () => {
        runs += 1;
      });
      w.schedule('test.nightly', 86_400);
    }
    await Promise.all(servers.map((w) => w.runDue()));
    expect(runs).toBe(1);
    await Promise.all(servers.map((w) => w.runDue()));
    await Promise.all(servers.map((w) => w.runDue({ at: inSeconds(3600) })));
    expect(runs).toBe(1); // not due again within the period
    await Promise.all(servers.map((w) => w.runDue({ at: inSeconds(86_401) })));
    await Promise.all(servers.map((w) => w.runDue({ at: inSeconds(86_402) })));
    expect(runs).toBe(2);
    const [row] = await t.app.db.select().from(jobSchedules).where(eq(jobSchedules.name, 'test.nightly'));
    expect(row!.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 2 * 86_400_000 - 60_000);
    expect(await t.app.db.select().from(jobs).where(eq(jobs.name, 'test.nightly'))).toHaveLength(2);
  });
});
