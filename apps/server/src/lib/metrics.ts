import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { type Database, rowsOf } from '../db/client';
import { AppError } from './app-error';

/**
 * Prometheus metrics (text format), one registry per app so several apps in one process (tests, the
 * bench) never mix their numbers. Counters and the request histogram count what this process saw;
 * the queue, pool and reconciliation gauges are read when scraped. The README lists every metric and
 * the alerts worth setting on them.
 *
 * Served at `GET /metrics` on METRICS_PORT (its own listener, on loopback unless METRICS_HOST says
 * otherwise), or on the main port only with `Authorization: Bearer $METRICS_TOKEN`; nowhere else.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A long-lived response (the live-event stream): counted in atelier_sse_connections, not among requests in flight. */
    stream?: boolean;
  }
}

/** The money lifecycles counted by outcome (`atelier_<kind>_total{outcome}`). */
export type MoneyKind = 'deposits' | 'purchases' | 'refunds' | 'withdrawals' | 'disputes';

/** Where the reconciliation job keeps its last answer, read by every server's scrape (migration 0037). */
export const RECONCILIATION_CHECK = 'ledger_reconciliation';

export type Metrics = {
  registry: Registry;
  /** A money lifecycle reached `outcome` (after its transaction committed). */
  money(kind: MoneyKind, outcome: string): void;
  /** A job attempt failed: `final` when it was the last one (the job is failed), else a retry is scheduled. */
  jobAttemptFailed(name: string, final: boolean): void;
  /** An open live-event stream: call on open, and the returned function once on close. */
  sseOpened(): () => void;
  /** The text a scrape gets, and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
  /** Filled by registerMetrics' hooks. */
  http: { duration: Histogram<'route' | 'method' | 'status'>; inFlight: Gauge };
};

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(database: Database): Metrics {
  const registry = new Registry();
  const db = database.db;
  const requestDuration = new Histogram({
    name: 'atelier_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern (never the raw URL), method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'atelier_http_requests_in_flight', help: 'HTTP requests being answered now.', registers: [registry] });
  new Gauge({
    name: 'atelier_job_queue_depth',
    help: 'Jobs waiting (pending, due or not) by job name.',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = rowsOf<{ name: string; n: number }>(await db.execute(sql`select name, count(*)::int as n from jobs where state = 'pending' group by name`));
      for (const row of rows) this.set({ job: row.name }, Number(row.n));
    },
  });
  new Gauge({
    name: 'atelier_job_oldest_ready_age_seconds',
    help: 'How long the oldest job that is due has waited to be picked up (0 when none waits).',
    registers: [registry],
    async collect() {
      const rows = rowsOf<{ age: number }>(
        await db.execute(sql`select coalesce(extract(epoch from now() - min(run_at)), 0)::float8 as age from jobs where state = 'pending' and run_at <= now()`),
      );
      this.set(Math.max(0, Number(rows[0]?.age ?? 0)));
    },
  });
  const jobFailures = new Counter({
    name: 'atelier_job_failures_total',
    help: 'Jobs failed after their last attempt, by job name.',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const jobRetries = new Counter({
    name: 'atelier_job_retries_total',
    help: 'Job attempts that failed and were scheduled again, by job name.',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const sse = new Gauge({ name: 'atelier_sse_connections', help: 'Open live-event (SSE) streams on this server.', registers: [registry] });
  const poolGauge = (name: string, help: string, pick: (p: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'] as const,
      registers: [registry],
      collect() {
        for (const p of database.pools?.() ?? []) this.set({ pool: p.name }, pick(p));
      },
    });
  poolGauge('atelier_db_pool_connections_in_use', 'Database connections of this server checked out of its pool now (PostgreSQL).', (p) => p.inUse);
  poolGauge('atelier_db_pool_connections_waiting', 'Queries of this server waiting for a free pool connection (PostgreSQL).', (p) => p.waiting);
  poolGauge('atelier_db_pool_connections_open', 'Database connections this server holds open, busy or idle (PostgreSQL).', (p) => p.total);
  new Gauge({
    name: 'atelier_ledger_reconciliation_ok',
    help: 'The last ledger reconciliation, run by a scheduled job: 1 everything checks out, 0 a mismatch.',
    registers: [registry],
    async collect() {
      const last = await lastCheck(database);
      if (last) this.set(last.ok ? 1 : 0);
    },
  });
  new Gauge({
    name: 'atelier_ledger_reconciliation_age_seconds',
    help: 'Seconds since the last ledger reconciliation ran (it runs every 5 minutes).',
    registers: [registry],
    async collect() {
      const last = await lastCheck(database);
      if (last) this.set(Math.max(0, last.age));
    },
  });
  const money = Object.fromEntries(
    (['deposits', 'purchases', 'refunds', 'withdrawals', 'disputes'] as const).map((kind) => [
      kind,
      new Counter({
        name: `atelier_${kind}_total`,
        help: `${kind[0]!.toUpperCase()}${kind.slice(1)} by outcome.`,
        labelNames: ['outcome'] as const,
        registers: [registry],
      }),
    ]),
  ) as Record<MoneyKind, Counter<'outcome'>>;

  return {
    registry,
    http: { duration: requestDuration, inFlight },
    money: (kind, outcome) => money[kind].inc({ outcome }),
    jobAttemptFailed: (name, final) => (final ? jobFailures : jobRetries).inc({ job: name }),
    sseOpened() {
      sse.inc();
      let open = true;
      return () => {
        if (open) sse.dec();
        open = false;
      };
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type PoolStats = { name: string; total: number; inUse: number; waiting: number };

async function lastCheck(database: Database): Promise<{ ok: boolean; age: number } | null> {
  const [row] = rowsOf<{ ok: boolean; age: number }>(
    await database.db.execute(sql`select ok, extract(epoch from now() - checked_at)::float8 as age from ops_checks where name = ${RECONCILIATION_CHECK}`),
  );
  return row ? { ok: Boolean(row.ok), age: Number(row.age) } : null;
}

/** Stores a check's answer for every server's scrape (the reconciliation job). */
export async function recordCheck(database: Database, name: string, ok: boolean): Promise<void> {
  await database.db.execute(
    sql`insert into ops_checks (name, ok, checked_at) values (${name}, ${ok}, now()) on conflict (name) do update set ok = excluded.ok, checked_at = excluded.checked_at`,
  );
}

/** The same length either way, so comparing takes the same time whatever the given token is. */
const digest = (text: string) => createHash('sha256').update(text).digest();

/** True when the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function hasMetricsToken(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization;
  const given = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/**
 * Request timing and `GET /metrics` on the main port. The histogram is labelled by the route pattern
 * Fastify matched (`/api/products/:id`), or `unmatched` for a 404 without a route, never by the URL.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined) {
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.stream) return;
    metrics.http.inFlight.inc();
    reply.raw.once('close', () => metrics.http.inFlight.dec());
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.http.duration.observe({ route, method: request.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  // Decided here, on the matched route: without a token configured the main port has no metrics (404),
  // and with one a request without it is refused (401).
  app.get('/metrics', { schema: { hide: true } }, async (request, reply: FastifyReply) => {
    if (!token) throw new AppError('NOT_FOUND', 'There is nothing at this address.');
    if (!hasMetricsToken(request, token)) {
      reply.header('www-authenticate', 'Bearer');
      throw new AppError('UNAUTHENTICATED', 'Metrics need the bearer token (METRICS_TOKEN).');
    }
    const { contentType, body } = await metrics.render();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
}

/**
 * The metrics listener (METRICS_PORT): answers `GET /metrics` and nothing else (404), on `host`
 * (loopback unless METRICS_HOST says otherwise). Returns its address and a close.
 */
export async function startMetricsServer(
  metrics: Metrics,
  opts: { host: string; port: number },
): Promise<{ address: AddressInfo; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const pathOnly = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || pathOnly !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at GET /metrics.\n');
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
      () => res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics are unavailable: the database did not answer.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
