import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppServer,
  Browser,
  createDatabase,
  dropDatabase,
  expectChatEventsFromEveryServer,
  PG_BASE,
  startAppServer,
  startNginx,
  stopAppServers,
  waitReady,
} from './behind-nginx';
import { freePort } from './server';

/**
 * Two app servers behind nginx, both reaching PostgreSQL through Debian's PgBouncer in transaction
 * pooling mode (DATABASE_POOL_MODE=transaction), with LISTEN and migrations on a direct connection
 * (DATABASE_LISTEN_URL), as the README's 'PgBouncer' section describes. The test starts PgBouncer and
 * nginx itself, on free ports, with configurations it writes to a temporary folder.
 */
const PGBOUNCER = '/usr/sbin/pgbouncer';

let work: string;
let dbName: string;
let directUrl: string;
let bouncerPort: number;
let servers: AppServer[] = [];
let nginx: ChildProcess | undefined;
let bouncer: ChildProcess | undefined;
let proxyPort: number;

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
  directUrl = await createDatabase(dbName);
  await startPgBouncer();
  proxyPort = await freePort();
  const env = {
    DATABASE_URL: `postgres://postgres@127.0.0.1:${bouncerPort}/${dbName}`,
    DATABASE_POOL_MODE: 'transaction',
    DATABASE_LISTEN_URL: directUrl,
  };
  // One after the other: the first migrates and seeds.
  servers = [await startAppServer(work, proxyPort, env)];
  servers.push(await startAppServer(work, proxyPort, env));
  nginx = await startNginx(work, proxyPort, servers);
}, 600_000);

afterAll(async () => {
  nginx?.kill('SIGTERM');
  await stopAppServers(servers);
  bouncer?.kill('SIGTERM');
  await dropDatabase(dbName);
  await rm(work, { recursive: true, force: true });
});

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
    await expectChatEventsFromEveryServer(buyer, proxyPort, servers, '127.3.0.3');

    // And the app's queries really went through PgBouncer: its statistics count this database's transactions.
    const adminConsole = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${bouncerPort}/pgbouncer` });
    await adminConsole.connect();
    const stats = (await adminConsole.query('SHOW STATS')).rows.find((r) => r.database === dbName);
    await adminConsole.end();
    expect(Number(stats?.total_xact_count ?? 0)).toBeGreaterThan(100);
  });
});
