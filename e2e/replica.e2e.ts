import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../apps/server/src/db/client';
import { signIn } from '../apps/server/test/accounts';
import { fund, seededProducts, userIdByEmail } from '../apps/server/test/commerce';
import { createTestApp, type TestApp } from '../apps/server/test/test-app';
import { type Replica, startReplica } from './pg-replica';
import { freePort } from './server';

/**
 * DATABASE_READ_URL on a streaming replica made with pg_basebackup on a second port of the local
 * PostgreSQL: the catalogue reads it, a purchase and the ownership check after it read the primary.
 */
const PG_BASE = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let replica: Replica;
let t: TestApp;
let scratch: string;
const savedUrl = process.env.DATABASE_URL;

/** A connection to the scratch database on the replica. */
async function onReplica<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(replica.url);
  url.pathname = `/${scratch}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The replica has replayed everything the primary wrote so far. */
async function caughtUp() {
  const primary = new pg.Client({ connectionString: PG_BASE });
  await primary.connect();
  const lsn = (await primary.query('select pg_current_wal_lsn() as l')).rows[0].l as string;
  await primary.end();
  await vi.waitFor(
    async () => {
      const ok = await onReplica(async (c) => (await c.query('select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [lsn])).rows[0].ok);
      if (!ok) throw new Error(`the replica has not replayed up to ${lsn}`);
    },
    { timeout: 60_000, interval: 100 },
  );
}

/** Scans of the products table that the replica's own statistics counted. */
const replicaProductScans = () =>
  onReplica(async (c) =>
    Number((await c.query(`select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as n from pg_stat_user_tables where relname = 'products'`)).rows[0]?.n ?? 0),
  );

beforeAll(async () => {
  replica = await startReplica(PG_BASE, await freePort());
  process.env.DATABASE_URL = PG_BASE;
  t = await createTestApp({ seed: true, readServerUrl: replica.url });
  scratch = rowsOf<{ d: string }>(await t.app.db.execute(sql`select current_database() as d`))[0]!.d;
  await caughtUp();
}, 300_000);

afterAll(async () => {
  await t?.close();
  if (savedUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = savedUrl;
  replica?.stop();
});

describe('a read replica (DATABASE_READ_URL)', () => {
  it('catalogue reads reach the replica: its statistics count them', async () => {
    const before = await replicaProductScans();
    for (const search of ['bloom', 'night', 'aurora']) {
      const res = await t.app.inject({ url: `/api/products/catalog?limit=12&search=${search}` });
      expect(res.statusCode).toBe(200);
    }
    // A backend reports its counts when it goes idle (at most once a second).
    await expect.poll(replicaProductScans, { timeout: 30_000, interval: 250 }).toBeGreaterThan(before);
  });

  it('while the replica lags, the catalogue shows the old price, and a purchase with its ownership check reads the primary', async () => {
    const admin = (await signIn(t.app, 'admin@example.com', 'atelier-demo')).client;
    const buyerId = await userIdByEmail(t.app, 'buyer@example.com');
    const [product] = await seededProducts(t.app, 'image');
    const oldPrice = Number(product!.priceMinor) / 100;
    const word = product!.title.split(/\s+/)[0]!.toLowerCase();

    // The replica stops replaying: everything written from now on is on the primary only.
    await onReplica((c) => c.query('select pg_wal_replay_pause()'));
    try {
      const repriced = await admin.request('PATCH', `/api/admin/products/${product!.id}`, { body: { price: oldPrice + 1 } });
      expect(repriced.statusCode).toBe(200);
      const catalog = await t.app.inject({ url: `/api/products/catalog?limit=48&search=${encodeURIComponent(word)}&sort=id~desc` });
      const listed = (catalog.json().payload as { id: number; price: number }[]).find((p) => p.id === product!.id);
      expect(listed?.price).toBe(oldPrice);

      await fund(t.app, buyerId, 100_00);
      const { client: buyer } = await signIn(t.app, 'buyer@example.com', 'atelier-demo');
      const bought = await buyer.post('/api/purchase/buy', { item_id: product!.id });
      expect(bought.statusCode, bought.body).toBe(200);
      // The sale charged the new price: the money path read the primary, not the lagging replica.
      expect(bought.json().payload.order.amount).toBe(oldPrice + 1);
      const history = await buyer.get('/api/purchase/history');
      expect((history.json().payload as { id: number }[]).map((o) => o.id)).toContain(bought.json().payload.order.id);
      const download = await buyer.get(`/api/user/media/download?id=${bought.json().payload.order.id}&product_id=${product!.id}`);
      expect(download.statusCode).toBe(200);
      // And the replica really has none of it yet.
      const onStandby = await onReplica(
        async (c) => (await c.query('select count(*)::int as n from orders where id = $1', [bought.json().payload.order.id])).rows[0].n,
      );
      expect(onStandby).toBe(0);
    } finally {
      await onReplica((c) => c.query('select pg_wal_replay_resume()'));
    }
    await caughtUp();
    const caught = await t.app.inject({ url: `/api/products/catalog?limit=48&search=${encodeURIComponent(word)}&sort=price~asc` });
    expect((caught.json().payload as { id: number; price: number }[]).find((p) => p.id === product!.id)?.price).toBe(oldPrice + 1);
  });
});
