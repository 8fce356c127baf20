import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './server';

/**
 * Two app servers behind nginx, both reaching PostgreSQL through Debian's PgBouncer in transaction
 * pooling mode (DATABASE_POOL_MODE=transaction), with LISTEN and migrations on a direct connection
 * (DATABASE_LISTEN_URL), as the README's 'PgBouncer' section describes. The test starts PgBouncer and
 * nginx itself, on free ports, with configurations it writes to a temporary folder.
 */
const NGINX = '/usr/sbin/nginx';
const PGBOUNCER = '/usr/sbin/pgbouncer';
const PG_BASE = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Server = { port: number; child: ChildProcess };
let work: string;
let dbName: string;
let directUrl: string;
let bouncerPort: number;
let servers: Server[] = [];
let nginx: ChildProcess | undefined;
let bouncer: ChildProcess | undefined;
let proxyPort: number;

async function waitReady(check: () => Promise<boolean>, child: ChildProcess, what: string) {
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what} not ready`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function startApp(port: number, secret: string): Promise<Server> {
  const built = existsSync('apps/server/dist/server.js');
  const args = built ? ['apps/server/dist/server.js'] : ['--import', 'tsx', 'apps/server/src/server.ts'];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, `app-${port}`),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${bouncerPort}/${dbName}`,
      DATABASE_POOL_MODE: 'transaction',
      DATABASE_LISTEN_URL: directUrl,
      SESSION_SECRET: secret,
      PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
      TRUST_PROXY: '127.0.0.1',
      NODE_ENV: 'development',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitReady(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok, child, 'app server');
  return { port, child };
}

async function startPgBouncer() {
  bouncerPort = await freePort();
  const pgHost = new URL(PG_BASE);
  const ini = `[databases]
* = host=${pgHost.hostname} port=${pgHost.port || 5432}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${bouncerPort}
unix_socket_dir =
auth_type = trust
auth_file = ${work}/userlist.txt
admin_users = postgres
pool_mode = transaction
max_client_conn = 200
default_pool_size = 12
ignore_startup_parameters = extra_float_digits
log_connections = 0
log_disconnections = 0
`;
  await writeFile(path.join(work, 'pgbouncer.ini'), ini);
  await writeFile(path.join(work, 'userlist.txt'), '"postgres" ""\n');
  // PgBouncer will not run as root: it drops to the postgres user, who must read its folder.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    await writeFile(path.join(work, 'pgbouncer.ini'), `${ini}user = postgres\n`);
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    for (const f of ['', 'pgbouncer.ini', 'userlist.txt']) chownSync(path.join(work, f), uid, gid);
    await chmod(work, 0o755);
  }
  bouncer = spawn(PGBOUNCER, [path.join(work, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitReady(
    async () => {
      const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${bouncerPort}/${dbName}` });
      await c.connect();
      await c.query('select 1');
      await c.end();
      return true;
    },
    bouncer,
    'pgbouncer',
  );
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'atelier-pgbouncer-e2e-'));
  dbName = `atelier_e2e_bouncer_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(PG_BASE);
  url.pathname = `/${dbName}`;
  directUrl = url.toString();
  await startPgBouncer();
  proxyPort = await freePort();
  const secret = 'e2e-shared-session-secret-0123456789abcdef';
  // One after the other: the first migrates and seeds.
  const first = await startApp(await freePort(), secret);
  const second = await startApp(await freePort(), secret);
  servers = [first, second];
  const asRoot = process.getuid?.() === 0;
  const conf = `${asRoot ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${work}/nginx.pid;
error_log ${work}/nginx-error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${work}/body;
  proxy_temp_path ${work}/proxy;
  fastcgi_temp_path ${work}/fastcgi;
  uwsgi_temp_path ${work}/uwsgi;
  scgi_temp_path ${work}/scgi;
  upstream atelier {
    server 127.0.0.1:${first.port};
    server 127.0.0.1:${second.port};
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${proxyPort};
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    location = /api/events {
      proxy_pass http://atelier;
      proxy_buffering off;
    }
    location / {
      proxy_pass http://atelier;
    }
  }
}
`;
  await writeFile(path.join(work, 'nginx.conf'), conf);
  const check = spawnSync(NGINX, ['-t', '-p', work, '-c', path.join(work, 'nginx.conf')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t: ${check.stderr}`);
  nginx = spawn(NGINX, ['-p', work, '-c', path.join(work, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
  await waitReady(async () => (await fetch(`http://127.0.0.1:${proxyPort}/readyz`)).ok, nginx, 'nginx');
}, 600_000);

afterAll(async () => {
  nginx?.kill('SIGTERM');
  for (const s of servers) {
    if (s.child.exitCode === null) {
      const exited = new Promise((r) => s.child.once('exit', r));
      s.child.kill('SIGTERM');
      await exited;
    }
  }
  bouncer?.kill('SIGTERM');
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  await rm(work, { recursive: true, force: true });
});

type Answer = { status: number; body: Buffer };

/** A browser: its cookies, the XSRF header, and its own loopback address as the client address. */
class Browser {
  private readonly jar = new Map<string, string>();
  constructor(
    private readonly port: number,
    private readonly address: string,
  ) {}

  request(method: string, pathname: string, body?: unknown, form?: Record<string, string>): Promise<Answer> {
    const headers: Record<string, string> = { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    let payload: string | undefined;
    if (form) {
      payload = new URLSearchParams(form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    if (method !== 'GET') headers['x-xsrf-token'] = decodeURIComponent(this.jar.get('XSRF-TOKEN') ?? '');
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.port, localAddress: this.address, method, path: pathname, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          for (const line of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
            const [pair = ''] = line.split(';');
            const at = pair.indexOf('=');
            this.jar.set(pair.slice(0, at), pair.slice(at + 1));
          }
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  async json(method: string, pathname: string, body?: unknown) {
    const res = await this.request(method, pathname, body);
    return { status: res.status, json: JSON.parse(res.body.toString() || '{}') };
  }

  async signIn(username: string, password: string) {
    await this.request('GET', '/sanctum/csrf-cookie');
    return this.json('POST', '/api/login', { username, password });
  }

  /** Opens the live stream and collects the events' names. */
  openStream(): Promise<{ events: string[]; close: () => void }> {
    return new Promise((resolve, reject) => {
      const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const req = http.get(
        { host: '127.0.0.1', port: this.port, localAddress: this.address, path: '/api/events', headers: { cookie }, agent: false },
        (res) => {
          const stream = { events: [] as string[], close: () => req.destroy() };
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            for (const m of chunk.matchAll(/^event: (\w+)$/gm)) stream.events.push(m[1]!);
          });
          resolve(stream);
        },
      );
      req.on('error', reject);
    });
  }
}

async function direct<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: directUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

describe('two app servers behind nginx, through PgBouncer in transaction pooling mode', () => {
  it('a purchase race comes out exact to the cent, and live chat events arrive', async () => {
    const buyer = new Browser(proxyPort, '127.3.0.2');
    expect((await buyer.signIn('buyer@example.com', 'atelier-demo')).status).toBe(200);
    const buyerId = (await buyer.json('GET', '/api/user/profile')).json.payload.id as number;

    // Add 30 EUR with the sandbox's card page, through the proxy.
    const started = await buyer.json('POST', '/api/deposit/checkout', { amount: 30, currency: 'EUR', payment_method: 'sandbox-card' });
    expect(started.status).toBe(200);
    const year = String(new Date().getUTCFullYear() + 2);
    const paid = await buyer.request('POST', new URL(started.json.payload.redirect_url).pathname, undefined, {
      card_number: '4242424242424242',
      exp_month: '12',
      exp_year: year,
      cvc: '123',
    });
    expect(paid.status).toBe(303);
    await expect
      .poll(async () => (await buyer.json('GET', `/api/deposit/status?order_id=${started.json.payload.order_id}`)).json.payload.status, { timeout: 30_000 })
      .toBe('success');

    const balanceOf = () =>
      direct(async (c) => Number((await c.query('select balance_minor from ledger_accounts where user_id = $1', [buyerId])).rows[0]?.balance_minor ?? 0));
    const spentBy = () =>
      direct(async (c) =>
        Number((await c.query(`select coalesce(sum(amount_minor), 0) as s from orders where buyer_id = $1 and status = 'success'`, [buyerId])).rows[0].s),
      );
    const ordersOf = () =>
      direct(async (c) => Number((await c.query(`select count(*) as n from orders where buyer_id = $1 and status = 'success'`, [buyerId])).rows[0].n));
    const balanceBefore = await balanceOf();
    const ordersBefore = await ordersOf();
    const spentBefore = await spentBy();

    // Every unowned image at once, more than the balance pays for, alternating over both servers by nginx.
    const catalog = await buyer.json('GET', '/api/products/catalog?product_type=image&limit=48');
    const images = (catalog.json.payload as { id: number; price: number }[]).slice(0, 16);
    const answers = await Promise.all(images.map((item) => buyer.json('POST', '/api/purchase/buy', { item_id: item.id })));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 200 || s === 422 || s === 409),
      JSON.stringify(answers.filter((a) => a.status >= 500)),
    ).toBe(true);
    expect(statuses).toContain(200);

    const spent = (await spentBy()) - spentBefore;
    const balance = await balanceOf();
    expect(balance).toBeGreaterThanOrEqual(0);
    // Exact to the cent: what left the balance is what the successful orders cost.
    expect(balanceBefore - balance).toBe(spent);
    // One order per sale answered 200: none lost, none doubled.
    expect(answers.filter((a) => a.status === 200).length).toBe((await ordersOf()) - ordersBefore);

    const admin = new Browser(proxyPort, '127.3.0.4');
    expect((await admin.signIn('admin@example.com', 'atelier-demo')).status).toBe(200);
    expect((await admin.json('GET', '/api/admin/ledger/reconciliation')).json.payload.ok).toBe(true);

    // A chat message's live event reaches the buyer's stream, whichever server holds it (LISTEN on the direct URL).
    const seller = new Browser(proxyPort, '127.3.0.3');
    expect((await seller.signIn('seller@example.com', 'atelier-demo')).status).toBe(200);
    const sellerId = (await seller.json('GET', '/api/user/profile')).json.payload.id;
    const chat = await buyer.json('POST', '/api/chat', { recipient_id: sellerId });
    expect(chat.status).toBe(200);
    const stream = await buyer.openStream();
    await expect.poll(() => stream.events).toContain('ready');
    for (const s of servers) {
      const through = new Browser(s.port, '127.3.0.3');
      expect((await through.signIn('seller@example.com', 'atelier-demo')).status).toBe(200);
      expect((await through.json('POST', `/api/chat/${chat.json.payload.id}/messages`, { message: `Hello from ${s.port}` })).status).toBe(200);
    }
    await expect.poll(() => stream.events.filter((e) => e === 'new_message').length, { timeout: 10_000 }).toBe(2);
    stream.close();

    // And the app's queries really went through PgBouncer: its statistics count this database's transactions.
    const adminConsole = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${bouncerPort}/pgbouncer` });
    await adminConsole.connect();
    const stats = (await adminConsole.query('SHOW STATS')).rows.find((r) => r.database === dbName);
    await adminConsole.end();
    expect(Number(stats?.total_xact_count ?? 0)).toBeGreaterThan(100);
  });
});
