import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema';

/** A database or a transaction: every query function takes one of these. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Calls `onMessage` for every NOTIFY on `channel` (from any app server on this database), and
   * `onReconnect` after a lost listening connection is back, since messages may have been missed.
   */
  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

/** A dedicated connection that LISTENs, and comes back after a network or server restart. */
function pgListener(url: string) {
  return async (channel: string, onMessage: (payload: string) => void, onReconnect?: () => void) => {
    let client: pg.Client | null = null;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (isReconnect: boolean) => {
      const c = new pg.Client({ connectionString: url });
      c.on('notification', (msg) => {
        if (msg.channel === channel) onMessage(msg.payload ?? '');
      });
      c.on('error', () => {
        if (stopped) return;
        client = null;
        c.end().catch(() => {});
        retry = setTimeout(() => void connect(true).catch(() => {}), 1000);
      });
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      client = c;
      if (isReconnect) onReconnect?.();
    };
    await connect(false);
    return async () => {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    };
  };
}

/** One slow statement must not freeze the embedded database or hold a pooled connection. */
const STATEMENT_TIMEOUT_MS = 15_000;

/**
 * Every statement is planned for the tables as they are when it runs. PostgreSQL otherwise keeps a
 * generic plan per connection for prepared statements, foreign-key checks and PL/pgSQL triggers, made
 * when a table was small (a sequential scan), until ANALYZE invalidates it; PGlite has no autovacuum to
 * do that, and a server may run with it off. Measured: a cached sequential scan over ledger_entries
 * read 63.7 million rows in one purchase bench; planned each time, purchases ran about 40% faster.
 */
const PLAN_CACHE_MODE = 'force_custom_plan';

/**
 * Opens PostgreSQL when a URL is given, else the embedded PGlite persisted at `pgliteDir`
 * (`memory://` keeps it in memory, for tests).
 */
export async function openDatabase(opts: { url?: string; pgliteDir: string }): Promise<Database> {
  if (opts.url) {
    const url = opts.url;
    const open = (max: number, options: string) => {
      const pool = new pg.Pool({ connectionString: url, max, statement_timeout: STATEMENT_TIMEOUT_MS, options, idleTimeoutMillis: 30_000 });
      // A broken idle connection must not crash the process; the pool replaces it.
      pool.on('error', () => {});
      return { pool, db: drizzlePg(pool, { schema }) as unknown as Db };
    };
    // A sequential scan starts where the last one stopped unless told not to: a LIMIT without an
    // order (the catalogue search's window of matches) would then find other rows each time.
    const main = open(10, `-c plan_cache_mode=${PLAN_CACHE_MODE} -c synchronize_seqscans=off`);
    await main.db.execute(sql`select 1`);
    return {
      db: main.db,
      kind: 'postgres',
      listen: pgListener(url),
      close: async () => {
        await main.pool.end();
      },
    };
  }
  const client = await PGlite.create(opts.pgliteDir, { extensions: { pg_trgm, fuzzystrmatch } });
  await client.exec(`SET statement_timeout = ${STATEMENT_TIMEOUT_MS}; SET plan_cache_mode = ${PLAN_CACHE_MODE}`);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    listen: async (channel, onMessage) => {
      const unlisten = await client.listen(channel, onMessage);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    close: () => client.close(),
  };
}

export { schema };
