import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, asc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';

/**
 * A job queue in the application's own PostgreSQL (or PGlite) database, so a job commits or rolls
 * back with the rows it is about, and every app server works the queue without a second service.
 *
 * Delivery is at least once: a server that dies mid-job leaves it `running`, and after the lease
 * another server runs it again. Handlers are written to be safe to repeat (mail checks `sent_at`)
 * and to finish well within the lease (15 minutes). A handler gets the database, not a transaction,
 * and opens its own. Never wait for the queue inside a transaction: on PGlite (one connection) the
 * worker's statements wait for that transaction to end.
 */

export type EnqueueOptions = {
  /** Not before this moment (deposit expiry, digests); default: as soon as the transaction commits. */
  runAt?: Date;
  /** While a job with this name and key waits or runs, enqueuing another one is a no-op. */
  singletonKey?: string;
};

export type JobContext = { db: Db; jobId: number; attempt: number; log: FastifyBaseLogger };
export type JobHandler<P> = (payload: P, ctx: JobContext) => Promise<void>;

/** Attempt n fails → the next one runs backoffMs · 2^(n-1) later (at most maxBackoffMs); after `attempts` it is failed. */
export type RetryPolicy = { attempts: number; backoffMs: number; maxBackoffMs: number };
const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoffMs: 10_000, maxBackoffMs: 3_600_000 };

export type Jobs = {
  /** The same as the exported `enqueue`: writes with `db`, which may be the caller's transaction. */
  enqueue: typeof enqueue;
  register<P>(name: string, handler: JobHandler<P>, retry?: Partial<RetryPolicy>): void;
  /** Polls for due jobs every `intervalMs` while idle (and straight on while there is work). */
  start(opts?: { intervalMs?: number; concurrency?: number }): void;
  /** Stops polling; resolves once the jobs running now have finished. */
  stop(): Promise<void>;
  /** Runs every job due by `at` (default now) on this process until none is left; returns how many attempts ran. For tests and scripts. */
  runDue(opts?: { at?: Date }): Promise<number>;
};

/**
 * Adds a job with `db`: pass the caller's transaction and a rollback enqueues nothing. Returns the
 * job id, or null when a job with the same name and singleton key is already waiting or running.
 */
export async function enqueue(db: Db, name: string, payload: unknown = {}, opts: EnqueueOptions = {}): Promise<number | null> {
  const rows = await db
    .insert(jobs)
    .values({ name, payload: payload ?? {}, runAt: opts.runAt ?? sql`now()`, singletonKey: opts.singletonKey ?? null })
    .onConflictDoNothing({ target: [jobs.name, jobs.singletonKey], where: sql`state in ('pending', 'running')` })
    .returning({ id: jobs.id });
  return rows[0]?.id ?? null;
}

/**
 * The SQL that enqueues one job per row of `from` (a CTE of the caller's statement), its payload an
 * expression over that row: for a caller that writes a job in the same statement as the rows it is
 * about (a purchase's receipt), so it costs no round trip of its own. Same rules as `enqueue`.
 */
export function enqueueSql(name: string, payload: SQL, from: SQL): SQL {
  return sql`insert into jobs (name, payload, run_at) select ${name}, ${payload}, now() from ${from} returning id`;
}

/** Finished jobs are kept this long for inspection, then deleted; failed ones stay until someone looks. */
const KEEP_DONE_DAYS = 7;
const MAINTENANCE_EVERY_MS = 60_000;

export function createJobs(db: Db, log: FastifyBaseLogger, opts: { leaseMs?: number; workerId?: string } = {}): Jobs {
  /** A job running longer than this is taken to belong to a dead server and is run again. */
  const leaseMs = opts.leaseMs ?? 15 * 60_000;
  const workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const handlers = new Map<string, { run: JobHandler<unknown>; retry: RetryPolicy }>();
  let loops: Promise<void>[] = [];
  let stopping = false;
  let wake: (() => void)[] = [];
  let lastMaintenance = 0;

  /** Marks the next due job as ours in one statement; SKIP LOCKED lets other servers take the next one meanwhile. */
  async function claim(at: Date | undefined) {
    const names = [...handlers.keys()];
    if (names.length === 0) return null;
    const due = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
    const next = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.state, 'pending'), inArray(jobs.name, names), sql`${jobs.runAt} <= ${due}`))
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(1)
      .for('update', { skipLocked: true });
    const [job] = await db
      .update(jobs)
      .set({ state: 'running', attempts: sql`${jobs.attempts} + 1`, lockedAt: sql`now()`, lockedBy: workerId })
      .where(sql`${jobs.id} = (${next})`)
      .returning({ id: jobs.id, name: jobs.name, payload: jobs.payload, attempts: jobs.attempts });
    return job ?? null;
  }

  async function finish(id: number, outcome: { ok: true } | { ok: false; error: string; retryInMs: number | null }) {
    const mine = and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.state, 'running'));
    const unlock = { lockedAt: null, lockedBy: null };
    if (outcome.ok) {
      await db
        .update(jobs)
        .set({ ...unlock, state: 'done', finishedAt: sql`now()` })
        .where(mine);
    } else if (outcome.retryInMs === null) {
      await db
        .update(jobs)
        .set({ ...unlock, state: 'failed', lastError: outcome.error, finishedAt: sql`now()` })
        .where(mine);
    } else {
      await db
        .update(jobs)
        .set({ ...unlock, state: 'pending', lastError: outcome.error, runAt: sql`now() + make_interval(secs => ${outcome.retryInMs / 1000})` })
        .where(mine);
    }
  }

  /** Claims and runs one due job; false when there was none. */
  async function runOne(at?: Date): Promise<boolean> {
    const job = await claim(at);
    if (!job) return false;
    const handler = handlers.get(job.name)!;
    const { attempts, backoffMs, maxBackoffMs } = handler.retry;
    const jobLog = log.child({ job: job.name, jobId: job.id, attempt: job.attempts });
    if (job.attempts > attempts) {
      // Claimed again after its server died on the last allowed attempt: do not start a crash loop.
      await finish(job.id, { ok: false, error: 'The server stopped during the last attempt.', retryInMs: null });
      jobLog.error('job failed: its last attempt never finished');
      return true;
    }
    try {
      await handler.run(job.payload, { db, jobId: job.id, attempt: job.attempts, log: jobLog });
      await finish(job.id, { ok: true });
    } catch (err) {
      const final = job.attempts >= attempts;
      const retryInMs = final ? null : Math.min(maxBackoffMs, backoffMs * 2 ** (job.attempts - 1));
      const error = err instanceof Error ? err.message : String(err);
      await finish(job.id, { ok: false, error: error.slice(0, 1000) || 'failed', retryInMs });
      // The message stays in jobs.last_error: it may quote an address, so the log line carries only its code.
      const code = (err as { code?: unknown }).code;
      if (final) jobLog.error({ code }, 'job failed after its last attempt');
      else jobLog.warn({ code, retryInMs }, 'job attempt failed; it will be retried');
    }
    return true;
  }

  /** Puts back jobs whose server died mid-run, and deletes old finished jobs. Any server may do it. */
  async function maintain(force = false) {
    const now = Date.now();
    if (!force && now - lastMaintenance < MAINTENANCE_EVERY_MS) return;
    lastMaintenance = now;
    await db
      .update(jobs)
      .set({ state: 'pending', lockedAt: null, lockedBy: null, lastError: 'The server stopped during this attempt.' })
      .where(and(eq(jobs.state, 'running'), lt(jobs.lockedAt, sql`now() - make_interval(secs => ${leaseMs / 1000})`)));
    await db.delete(jobs).where(and(eq(jobs.state, 'done'), lt(jobs.finishedAt, sql`now() - make_interval(days => ${KEEP_DONE_DAYS})`)));
  }

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = wake.filter((w) => w !== done);
        resolve();
      }
      wake.push(done);
    });
  }

  async function loop(intervalMs: number) {
    while (!stopping) {
      let ran = false;
      try {
        await maintain();
        ran = await runOne();
      } catch (err) {
        // The database is away (restart, failover): keep polling, it comes back.
        log.error({ code: (err as { code?: unknown }).code }, 'job queue poll failed');
      }
      if (!ran && !stopping) await sleep(intervalMs);
    }
  }

  return {
    enqueue,
    register(name, handler, retry) {
      if (handlers.has(name)) throw new Error(`Job ${name} has a handler already.`);
      handlers.set(name, { run: handler as JobHandler<unknown>, retry: { ...DEFAULT_RETRY, ...retry } });
    },
    start({ intervalMs = 1000, concurrency = 1 } = {}) {
      if (loops.length) return;
      stopping = false;
      loops = Array.from({ length: concurrency }, () => loop(intervalMs));
    },
    async stop() {
      stopping = true;
      for (const w of [...wake]) w();
      await Promise.all(loops);
      loops = [];
    },
    async runDue({ at } = {}) {
      await maintain(true);
      let count = 0;
      while (await runOne(at)) count += 1;
      return count;
    },
  };
}
