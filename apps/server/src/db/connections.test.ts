import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { userIdByEmail } from '../../test/commerce';
import { createTestApp } from '../../test/test-app';
import { openDatabase, rowsOf } from './client';

/**
 * The connections beside DATABASE_URL: LISTEN on DATABASE_LISTEN_URL, lagging reads on
 * DATABASE_READ_URL, and no session state behind a transaction-pooling PgBouncer
 * (DATABASE_POOL_MODE=transaction). Each connection names itself (application_name) so
 * pg_stat_activity shows which one did what. The end-to-end runs with a real PgBouncer and a real
 * replica are e2e/pgbouncer.e2e.ts and e2e/replica.e2e.ts.
 */
const serverUrl = process.env.DATABASE_URL;
const dropped: string[] = [];

async function scratchUrl(appName: string, name: string): Promise<string> {
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  url.searchParams.set('application_name', appName);
  return url.toString();
}

async function createScratch(): Promise<string> {
  const name = `atelier_conn_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  dropped.push(name);
  return name;
}

afterAll(async () => {
  if (!serverUrl || !dropped.length) return;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  for (const name of dropped) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

type Activity = { application_name: string; query: string };
async function activity(db: string): Promise<Activity[]> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const { rows } = await admin.query<Activity>('select application_name, query from pg_stat_activity where datname = $1', [db]);
  await admin.end();
  return rows;
}

// Each database runs what applies to it: the embedded one has no second connection to route to.
if (serverUrl) {
  describe('on PostgreSQL', () => {
    it('LISTEN runs on DATABASE_LISTEN_URL, and a NOTIFY through the main pool reaches it', async () => {
      const name = await createScratch();
      const database = await openDatabase({ url: await scratchUrl('atelier-main', name), listenUrl: await scratchUrl('atelier-listen', name), pgliteDir: '' });
      try {
        const heard: string[] = [];
        const stop = await database.listen('atelier_conn_test', (payload) => heard.push(payload));
        const listening = (await activity(name)).filter((a) => a.application_name === 'atelier-listen');
        expect(listening.map((a) => a.query)).toEqual(['LISTEN "atelier_conn_test"']);
        await database.db.execute(sql`select pg_notify('atelier_conn_test', 'hello')`);
        await expect.poll(() => heard).toEqual(['hello']);
        await stop();
      } finally {
        await database.close();
      }
    });

    it('behind a transaction pooler: no startup options, the session defaults are the role’s settings, named statements run unnamed', async () => {
      const name = await createScratch();
      // A setting an earlier version made a role default (the forced plan mode, issue 30) goes back to the server's default.
      const admin = new pg.Client({ connectionString: await scratchUrl('atelier-admin', name) });
      await admin.connect();
      await admin.query(`alter role current_user in database ${name} set plan_cache_mode = 'force_custom_plan'`);
      await admin.end();
      const database = await openDatabase({
        url: await scratchUrl('atelier-pooled', name),
        listenUrl: await scratchUrl('atelier-direct', name),
        poolMode: 'transaction',
        pgliteDir: '',
      });
      try {
        const show = async (setting: string) => rowsOf<{ v: string }>(await database.db.execute(sql.raw(`select current_setting('${setting}') as v`)))[0]!.v;
        // A new server connection starts with them (PgBouncer's are new connections too).
        expect(await show('statement_timeout')).toBe('15s');
        expect(await show('plan_cache_mode')).toBe('auto');
        expect(await show('synchronize_seqscans')).toBe('off');
        // A statement prepared by name on one connection and run on another would fail behind PgBouncer; here it is sent unnamed.
        // openDatabase made this Db with drizzle's node-postgres driver over a pg.Pool, which it keeps as $client; Db does not show it.
        const pool = (database.db as unknown as { $client: pg.Pool }).$client;
        const a = await pool.connect();
        const b = await pool.connect();
        try {
          await a.query({ name: 'same_name', text: 'select $1::int as n', values: [1] });
          const { rows } = await b.query({ name: 'same_name', text: 'select $1::int + 1 as n', values: [1] });
          expect(rows[0].n).toBe(2);
          const prepared = await a.query('select count(*)::int as n from pg_prepared_statements');
          expect(prepared.rows[0].n).toBe(0);
        } finally {
          a.release();
          b.release();
        }
      } finally {
        await database.close();
      }
    });

    it('a visitor’s public profile and the catalogue read DATABASE_READ_URL', async () => {
      const t = await createTestApp({ seed: true, readServerUrl: `${serverUrl}${serverUrl!.includes('?') ? '&' : '?'}application_name=atelier-read` });
      try {
        const name = rowsOf<{ d: string }>(await t.app.db.execute(sql`select current_database() as d`))[0]!.d;
        const lastReads = async () =>
          (await activity(name))
            .filter((a) => a.application_name === 'atelier-read')
            .map((a) => a.query)
            .join('\n');
        // Migrations and the seed ran on the primary: the read pool has not connected yet. pg_stat_activity shows each connection's last statement.
        expect(await lastReads()).toBe('');
        const profile = await t.app.inject({ url: `/api/user/public-profile/${await userIdByEmail(t.app, 'seller@example.com')}` });
        expect(profile.statusCode, profile.body).toBe(200);
        expect(await lastReads()).toContain('from "follows"');
        const res = await t.app.inject({ url: '/api/products/catalog?limit=12&search=night' });
        expect(res.statusCode).toBe(200);
        expect(await lastReads()).toContain('"products"');
      } finally {
        await t.close();
      }
    });
  });
} else {
  describe('on the embedded database', () => {
    it('has one connection: reads, direct work and LISTEN all use it', async () => {
      const database = await openDatabase({ pgliteDir: 'memory://' });
      try {
        expect(database.read).toBe(database.db);
        expect(await database.direct(async (db) => db === database.db)).toBe(true);
        const heard: string[] = [];
        const stop = await database.listen('atelier_conn_test', (payload) => heard.push(payload));
        await database.db.execute(sql`select pg_notify('atelier_conn_test', 'hello')`);
        await expect.poll(() => heard).toEqual(['hello']);
        await stop();
      } finally {
        await database.close();
      }
    });
  });
}
