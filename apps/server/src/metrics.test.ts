import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../test/accounts';
import { fund, seededProducts, userIdByEmail } from '../test/commerce';
import { openStream } from '../test/event-stream';
import { useTestApp } from '../test/test-app';
import { loadConfig } from './config';
import { enqueue } from './lib/jobs';

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';

/** The value of one sample line (`name{labels} value`), or undefined when the text has no such line. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
      })
      .on('error', reject);
  });
}

describe('GET /metrics on the main port, with METRICS_TOKEN', () => {
  const t = useTestApp({ seed: true, env: { METRICS_TOKEN: TOKEN } });
  let baseUrl: string;
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('refuses a scrape without the token, or with another one (401), and never serves it as a page', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('atelier_');
    }
  });

  it('answers in Prometheus text format with the token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'atelier_http_request_duration_seconds histogram',
      'atelier_http_requests_in_flight gauge',
      'atelier_job_queue_depth gauge',
      'atelier_job_oldest_ready_age_seconds gauge',
      'atelier_job_failures_total counter',
      'atelier_job_retries_total counter',
      'atelier_sse_connections gauge',
      'atelier_db_pool_connections_in_use gauge',
      'atelier_db_pool_connections_waiting gauge',
      'atelier_ledger_reconciliation_ok gauge',
      'atelier_deposits_total counter',
      'atelier_purchases_total counter',
      'atelier_refunds_total counter',
      'atelier_withdrawals_total counter',
      'atelier_disputes_total counter',
    ]) {
      expect(res.body).toContain(`# TYPE ${name}`);
    }
  });

  it('times requests by route pattern, method and status, never by the raw URL', async () => {
    await t.app.inject({ method: 'GET', url: '/api/products/987654/info?secret=abc' });
    await t.app.inject({ method: 'GET', url: '/no/such/page-424242' });
    const text = await scrape();
    const lines = text.split('\n').filter((l) => l.startsWith('atelier_http_request_duration_seconds_count'));
    expect(lines.some((l) => /route="\/api\/products\/:slug\/info",method="GET",status="4\d\d"/.test(l))).toBe(true);
    expect(text).not.toContain('987654');
    expect(text).not.toContain('424242');
    expect(text).not.toContain('secret');
    expect(sample(text, 'atelier_http_requests_in_flight')).toBeGreaterThanOrEqual(1);
  });

  it('counts purchases by outcome (paid; refused for want of balance) and a refund request', async () => {
    const [image] = await seededProducts(t.app, 'image');
    const rich = await registerUser(t.app);
    await fund(t.app, await userIdByEmail(t.app, rich.person.email), 1_000_000);
    const poor = await registerUser(t.app);
    const bought = await rich.client.post('/api/purchase/buy', { item_id: image!.id });
    expect(bought.statusCode).toBe(200);
    expect((await poor.client.post('/api/purchase/buy', { item_id: image!.id })).statusCode).toBeGreaterThanOrEqual(400);
    let text = await scrape();
    expect(sample(text, 'atelier_purchases_total', 'outcome="paid"')).toBe(1);
    expect(sample(text, 'atelier_purchases_total', 'outcome="refused"')).toBe(1);

    // The buyer asks for a refund of it: a refund request.
    const orderId = bought.json().payload.order.id as number;
    const asked = await rich.client.post(`/api/orders/${orderId}/refund-request`, {
      product_id: image!.id,
      reason: 'broken_file',
      message: 'The file does not open.',
    });
    expect(asked.statusCode).toBe(200);
    text = await scrape();
    expect(sample(text, 'atelier_refunds_total', 'outcome="requested"')).toBe(1);
  });

  it('counts card deposits by outcome: succeeded and failed (the sandbox)', async () => {
    const { client } = await registerUser(t.app);
    const year = String(new Date().getUTCFullYear() + 2);
    const pay = async (cardNumber: string) => {
      const started = await client.post('/api/deposit/checkout', { amount: 25, currency: 'EUR', payment_method: 'sandbox-card' });
      expect(started.statusCode).toBe(200);
      const pagePath = new URL(started.json().payload.redirect_url).pathname;
      const paid = await t.app.inject({
        method: 'POST',
        url: pagePath,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ card_number: cardNumber, exp_month: '12', exp_year: year, cvc: '123' }).toString(),
      });
      expect(paid.statusCode).toBe(303);
    };
    await pay('4242424242424242');
    await pay('4000000000000002');
    const text = await scrape();
    expect(sample(text, 'atelier_deposits_total', 'outcome="succeeded"')).toBe(1);
    expect(sample(text, 'atelier_deposits_total', 'outcome="failed"')).toBe(1);
  });

  it('reports the queue by job name, the oldest ready job, retries and failures', async () => {
    let calls = 0;
    t.app.jobs.register(
      'metrics-test.flaky',
      async () => {
        calls += 1;
        throw new Error('always fails');
      },
      { attempts: 2, backoffMs: 0 },
    );
    await enqueue(t.app.db, 'metrics-test.waiting', {}, { runAt: new Date(Date.now() - 60_000) });
    await enqueue(t.app.db, 'metrics-test.waiting', {}, { runAt: new Date(Date.now() + 3_600_000) });
    let text = await scrape();
    expect(sample(text, 'atelier_job_queue_depth', 'job="metrics-test.waiting"')).toBe(2);
    expect(sample(text, 'atelier_job_oldest_ready_age_seconds')).toBeGreaterThanOrEqual(59);

    await enqueue(t.app.db, 'metrics-test.flaky');
    await t.app.jobs.runDue();
    expect(calls).toBe(2);
    text = await scrape();
    expect(sample(text, 'atelier_job_retries_total', 'job="metrics-test.flaky"')).toBe(1);
    expect(sample(text, 'atelier_job_failures_total', 'job="metrics-test.flaky"')).toBe(1);
  });

  it('reports the reconciliation its scheduled job stored: 1 when the ledger checks out', async () => {
    await t.app.jobs.runDue();
    expect(sample(await scrape(), 'atelier_ledger_reconciliation_ok')).toBe(1);
    expect(sample(await scrape(), 'atelier_ledger_reconciliation_age_seconds')).toBeLessThan(300);
  });

  it('counts the open live-event streams', async () => {
    const { client } = await registerUser(t.app);
    const stream = await openStream(baseUrl, client);
    await stream.next('ready');
    const during = await scrape();
    expect(sample(during, 'atelier_sse_connections')).toBe(1);
    // A stream is not a request in flight: only the scrape itself is.
    expect(sample(during, 'atelier_http_requests_in_flight')).toBe(1);
    stream.close();
    await expect.poll(async () => sample(await scrape(), 'atelier_sse_connections')).toBe(0);
  });

  it('reports the database pools on PostgreSQL (PGlite has one connection and no pool)', async () => {
    const text = await scrape();
    if (t.app.database.kind === 'postgres') {
      expect(sample(text, 'atelier_db_pool_connections_in_use', 'pool="main"')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'atelier_db_pool_connections_waiting', 'pool="main"')).toBe(0);
    } else {
      expect(text).toContain('# TYPE atelier_db_pool_connections_in_use gauge');
      expect(sample(text, 'atelier_db_pool_connections_in_use', 'pool="main"')).toBeUndefined();
    }
  });
});

describe('GET /metrics on the main port without METRICS_TOKEN', () => {
  const t = useTestApp();

  it('is not there (404), whatever the request carries', async () => {
    for (const headers of [{}, { authorization: 'Bearer anything' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('atelier_');
    }
  });
});

describe('the metrics port (METRICS_PORT)', () => {
  it('is off by default', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-metrics-'));
    try {
      expect(loadConfig({ DATA_DIR: dataDir }).metrics).toEqual({ port: undefined, host: '127.0.0.1', token: undefined });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('listens on loopback only, serves GET /metrics without a token there and nothing else', async () => {
    const { startServer } = await import('./server');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-metrics-'));
    const running = await startServer(
      loadConfig({ DATA_DIR: dataDir, PORT: '0', METRICS_PORT: '0', SEED_DEMO: 'false', SHUTDOWN_GRACE_MS: '0', LOG_LEVEL: 'silent' }),
    );
    try {
      const address = running.metricsAddress!;
      expect(address.address).toBe('127.0.0.1');
      const metrics = await get(`http://127.0.0.1:${address.port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.type).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(metrics.body).toContain('# TYPE atelier_http_request_duration_seconds histogram');
      expect((await get(`http://127.0.0.1:${address.port}/api/products/catalog`)).status).toBe(404);
      expect((await get(`http://127.0.0.1:${address.port}/`)).status).toBe(404);

      // From another interface of this machine the port is closed.
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal);
      if (outside) {
        const refused = await new Promise<string>((resolve) => {
          const socket = connect({ host: outside.address, port: address.port });
          socket.once('connect', () => {
            socket.destroy();
            resolve('connected');
          });
          socket.once('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? 'error'));
        });
        expect(refused).toBe('ECONNREFUSED');
      }
    } finally {
      await running.shutdown('test');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
