import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, asc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { jobSchedules, jobs } from '../db/schema';

/**
 * A job queue in the application's own PostgreSQL (or PGlite) database, so a job commits or rolls
 * back with the rows it is about, and every app server works the queue without a second service.
 *
 * Delivery is at least once: a server that dies mid-job leaves it `running`, and once that attempt's
 * timeout has passed (the handler's `timeoutMs`, 15 minutes by default) any server puts it back, to be
 * retried or, after its last attempt, failed. A handler past its timeout on a living server is
 * abandoned the same way (its `ctx.signal` aborts). Handlers are written to be safe to repeat (mail
 * checks `sent_at`). A handler gets the database, not a transaction, and opens its own. A job whose
 * last attempt failed runs its `onFailed` (a refund) before it is marked failed; a crash there runs
 * it again, so `onFailed` too must be safe to repeat.
 *
 * Recurring jobs (`schedule`) are rows of job_schedules: whichever server's update moves a schedule's
 * next_run_at enqueues that period's job, so several app servers run each schedule once per period. Never wait for the queue inside a transaction: on PGlite (one connection) the
 * worker's statements wait for that transaction to end.
 */

export type EnqueueOptions = {
  /** Not before this moment (deposit expiry, digests); default: as soon as the transaction commits. */
  runAt?: Date;
  /** While a job with this name and key waits or runs, enqueuing another one is a no-op. */
  singletonKey?: string;
};

/** `signal` aborts when the attempt passes its timeout (or the server stops waiting for it). */
export type JobContext = { db: Db; jobId: number; attempt: number; log: FastifyBaseLogger; signal: AbortSignal };
export type JobHandler<P> = (payload: P, ctx: JobContext) => Promise<void>;

/** Attempt n fails → the next one runs backoffMs · 2^(n-1) later (at most maxBackoffMs); after `attempts` it is failed. */
export type RetryPolicy = { attempts: number; backoffMs: number; maxBackoffMs: number };
const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoffMs: 10_000, maxBackoffMs: 3_600_000 };
/** A job's attempt that runs longer than this is given up (retried, or failed after the last attempt). */
export const DEFAULT_JOB_TIMEOUT_MS = 15 * 60_000;

export type JobOptions<P> = Partial<RetryPolicy> & {
  /** How long one attempt may run (default 15 minutes). */
  timeoutMs?: number;
  /** Runs once the last attempt has failed, before the job is marked failed (a refund); must be safe to repeat. */
  onFailed?: (payload: P, ctx: JobContext & { error: string }) => Promise<void>;
};

export type Jobs = {
  /** The same as the exported `enqueue`: writes with `db`, which may be the caller's transaction. */
  enqueue: typeof enqueue;
  register<P>(name: string, handler: JobHandler<P>, opts?: JobOptions<P>): void;
  /** Runs the (registered) job `name` every `everySeconds`, once per period across all app servers. */
  schedule(name: string, everySeconds: number): void;
  /** Polls for due jobs every `intervalMs` while idle (and straight on while there is work). */
  start(opts?: { intervalMs?: number; concurrency?: number }): void;
  /** Stops polling; resolves once the jobs running now have finished. */
  stop(): Promise<void>;
  /** Runs every job due by `at` (default now) on this process until none is left; returns how many attempts ran. For tests and scripts. */
  runDue(opts?: { at?: Date }): Promise<number>;
  /**
   * Runs the job `id` here and now if it is waiting (whatever its run_at): for a request that waits
   * for its own job. False when it is not waiting (running elsewhere, or finished).
   */
  runJob(id: number): Promise<boolean>;
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

const LEASE_LAPSED = 'The attempt did not finish before its timeout (its server stopped or it ran too long).';
/** Finished jobs are kept this long for inspection, then deleted; failed ones stay until someone looks. */
const KEEP_DONE_DAYS = 7;
const MAINTENANCE_EVERY_MS = 60_000;

type Handler = { run: JobHandler<unknown>; retry: RetryPolicy; timeoutMs: number; onFailed?: JobOptions<unknown>['onFailed'] };

class JobTimeout extends Error {
  constructor(ms: number) {
    super(`The job ran past its timeout (${Math.round(ms / 1000)} s).`);
    this.name = 'JobTimeout';
  }
}

export function createJobs(
  db: Db,
  log: FastifyBaseLogger,
  opts: {
    leaseMs?: number;
    workerId?: string;
    /** Told of every failed attempt (the metrics): `final` when the job is failed, else it will be retried. */
    onAttemptFailed?: (name: string, final: boolean) => void;
  } = {},
): Jobs {
  /** The timeout of handlers registered without one (a running job past it is taken to belong to a dead server). */
  const defaultTimeoutMs = opts.leaseMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const handlers = new Map<string, Handler>();
  const schedules = new Map<string, number>();
  let schedulesSaved = false;
  let loops: Promise<void>[] = [];
  let stopping = false;
  let wake: (() => void)[] = [];
  let lastMaintenance = 0;

  /**
   * Marks the next due job as ours in one statement; SKIP LOCKED lets other servers take the next one
   * meanwhile. A job still `running` past its lease (`timeout_at`: its server died, or it hung) is due
   * too, so the next poll after the lease takes it up, not the next maintenance round (issue 29).
   */
  async function claim(at: Date | undefined, id?: number) {
    const names = [...handlers.keys()];
    if (names.length === 0) return null;
    const due = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
    const dueNow =
      id === undefined
        ? sql`((${jobs.state} = 'pending' and ${jobs.runAt} <= ${due}) or (${jobs.state} = 'running' and ${jobs.timeoutAt} < now()))`
        : and(eq(jobs.state, 'pending'), eq(jobs.id, id));
    const next = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.name, names), dueNow))
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(1)
      .for('update', { skipLocked: true });
    // Each attempt carries its own deadline: the timeout of the handler its name has.
    const timeoutSecs = sql.join(
      [sql`case ${jobs.name}`, ...names.map((n) => sql`when ${n} then ${handlers.get(n)!.timeoutMs / 1000}`), sql`else ${defaultTimeoutMs / 1000} end`],
      sql` `,
    );
    const [job] = await db
      .update(jobs)
      .set({
        state: 'running',
        attempts: sql`${jobs.attempts} + 1`,
        lockedAt: sql`now()`,
        lockedBy: workerId,
        timeoutAt: sql`now() + make_interval(secs => (${timeoutSecs})::double precision)`,
        lastError: sql`case when ${jobs.state} = 'running' then ${LEASE_LAPSED} else ${jobs.lastError} end`,
      })
      .where(sql`${jobs.id} = (${next})`)
      .returning({ id: jobs.id, name: jobs.name, payload: jobs.payload, attempts: jobs.attempts, lastError: jobs.lastError });
    return job ?? null;
  }

  async function finish(id: number, outcome: { ok: true } | { ok: false; error: string; retryInMs: number | null }) {
    const mine = and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.state, 'running'));
    const unlock = { lockedAt: null, lockedBy: null, timeoutAt: null };
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

  /** Runs the handler, giving up (and aborting its signal) once the handler's timeout has passed. */
  async function runWithTimeout(handler: Handler, payload: unknown, ctx: Omit<JobContext, 'signal'>) {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new JobTimeout(handler.timeoutMs);
        abort.abort(err);
        reject(err);
      }, handler.timeoutMs);
    });
    try {
      await Promise.race([handler.run(payload, { ...ctx, signal: abort.signal }), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The last attempt failed: `onFailed` first, then the job is failed. If `onFailed` throws, it is tried again later. */
  async function failFinally(job: { id: number; payload: unknown; attempts: number }, handler: Handler, error: string, jobLog: FastifyBaseLogger) {
    if (handler.onFailed) {
      try {
        await handler.onFailed(job.payload, { db, jobId: job.id, attempt: job.attempts, log: jobLog, signal: new AbortController().signal, error });
      } catch (err) {
        jobLog.error({ code: (err as { code?: unknown }).code }, 'job failure handler failed; it will be tried again');
        await finish(job.id, { ok: false, error, retryInMs: handler.retry.backoffMs });
        return;
      }
    }
    await finish(job.id, { ok: false, error, retryInMs: null });
  }

  /** Claims and runs one due job (or the job `id` if it is waiting); false when there was none. */
  async function runOne(at?: Date, id?: number): Promise<boolean> {
    const job = await claim(at, id);
    if (!job) return false;
    const handler = handlers.get(job.name)!;
    const { attempts, backoffMs, maxBackoffMs } = handler.retry;
    const jobLog = log.child({ job: job.name, jobId: job.id, attempt: job.attempts });
    if (job.attempts > attempts) {
      // Claimed again after its last allowed attempt never finished (its server died, or it timed out),
      // or after its failure handler failed: do not start a crash loop.
      await failFinally(job, handler, job.lastError ?? 'The server stopped during the last attempt.', jobLog);
      opts.onAttemptFailed?.(job.name, true);
      jobLog.error('job failed: its last attempt never finished');
      return true;
    }
    try {
      await runWithTimeout(handler, job.payload, { db, jobId: job.id, attempt: job.attempts, log: jobLog });
      await finish(job.id, { ok: true });
    } catch (err) {
      const final = job.attempts >= attempts;
      const error = (err instanceof Error ? err.message : String(err)).slice(0, 1000) || 'failed';
      const code = (err as { code?: unknown }).code;
      // The message stays in jobs.last_error: it may quote an address, so the log line carries only its code.
      if (final) {
        await failFinally(job, handler, error, jobLog);
        opts.onAttemptFailed?.(job.name, true);
        jobLog.error({ code }, 'job failed after its last attempt');
      } else {
        const retryInMs = Math.min(maxBackoffMs, backoffMs * 2 ** (job.attempts - 1));
        await finish(job.id, { ok: false, error, retryInMs });
        opts.onAttemptFailed?.(job.name, false);
        jobLog.warn({ code, retryInMs }, 'job attempt failed; it will be retried');
      }
    }
    return true;
  }

  /**
   * Enqueues the run of every schedule that is due by `at`: one statement per schedule moves its
   * next_run_at and inserts the job, so of several servers only the first one's update matches.
   * A run still waiting from the last period is not doubled (the singleton key).
   */
  async function tickSchedules(at?: Date) {
    if (schedules.size === 0) return;
    if (!schedulesSaved) {
      for (const [name, everySeconds] of schedules) {
        await db.insert(jobSchedules).values({ name, everySeconds }).onConflictDoUpdate({ target: jobSchedules.name, set: { everySeconds } });
      }
      schedulesSaved = true;
    }
    const now = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
    for (const name of schedules.keys()) {
      await db.execute(sql`
        with due as (
          update job_schedules set next_run_at = ${now} + make_interval(secs => every_seconds), last_run_at = ${now}
          where name = ${name} and next_run_at <= ${now} returning name)
        insert into jobs (name, payload, run_at, singleton_key) select name, '{}'::jsonb, now(), 'schedule' from due
        on conflict (name, singleton_key) where state in ('pending', 'running') do nothing`);
    }
  }

  /** Puts back jobs whose server died mid-run, and deletes old finished jobs. Any server may do it. */
  async function maintain(force = false, at?: Date) {
    const now = Date.now();
    if (!force && now - lastMaintenance < MAINTENANCE_EVERY_MS) return;
    lastMaintenance = now;
    // Past its timeout a running job is put back: retried, or (its last attempt) failed at its next claim.
    await db
      .update(jobs)
      .set({
        state: 'pending',
        lockedAt: null,
        lockedBy: null,
        timeoutAt: null,
        runAt: sql`now()`,
        lastError: LEASE_LAPSED,
      })
      .where(and(eq(jobs.state, 'running'), sql`coalesce(${jobs.timeoutAt}, ${jobs.lockedAt} + make_interval(secs => ${defaultTimeoutMs / 1000})) < now()`));
    await tickSchedules(at);
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
    register(name, handler, options = {}) {
      if (handlers.has(name)) throw new Error(`Job ${name} has a handler already.`);
      const { timeoutMs, onFailed, ...retry } = options;
      handlers.set(name, {
        run: handler as JobHandler<unknown>,
        retry: { ...DEFAULT_RETRY, ...retry },
        timeoutMs: timeoutMs ?? defaultTimeoutMs,
        onFailed: onFailed as Handler['onFailed'],
      });
    },
    schedule(name, everySeconds) {
      if (!handlers.has(name)) throw new Error(`Job ${name} has no handler to schedule.`);
      schedules.set(name, everySeconds);
      schedulesSaved = false;
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
      await maintain(true, at);
      let count = 0;
      while (await runOne(at)) count += 1;
      return count;
    },
    runJob(id) {
      return runOne(undefined, id);
    },
  };
}
