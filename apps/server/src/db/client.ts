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

/**
 * A transaction as the `Db` every query function takes. Drizzle types a transaction by its driver's
 * result kind (PGlite's or pg's), and `Db` by the common one; both run the same queries, so the one
 * cast from the driver's type to the common type is made here, once.
 */
export const asDb = (tx: unknown): Db => tx as Db;

/**
 * The rows of `db.execute(sql`…`)`. Both drivers answer `{ rows }`, but drizzle's common `Db` types
 * the answer by driver, so the rows' shape is the caller's word (the SQL's select list), given as T.
 */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export type Database = {
  db: Db;
  /**
   * For reads that may lag a little behind a write (DATABASE_READ_URL, a streaming replica): the
   * catalogue, search, public pages, related works, public profiles, analytics. Anything a user just
   * wrote and every money read stays on `db`. Without a replica it is `db` itself.
   */
  read: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` on one direct connection (DATABASE_LISTEN_URL when set, else the main URL): migrations,
   * which must not go through a transaction-pooling PgBouncer.
   */
  direct<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** The embedded database only: its data folder as a gzipped tar, taken while no statement runs (a consistent copy). */
  dumpEmbedded?: () => Promise<Blob>;
  /**
   * Calls `onMessage` for every NOTIFY on `channel` (from any app server on this database), and
   * `onReconnect` after a lost listening connection is back, since messages may have been missed.
   */
  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PostgreSQL: each pool's connections now, for the metrics (PGlite has one connection, no pool). */
  pools?: () => { name: string; total: number; inUse: number; waiting: number }[];
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

const NAMED = '/* statement: ';

/**
 * A statement the app builds once and runs often (the sale's, features/ledger) opens its text with
 * this comment; on a direct connection it is prepared under that name (NamedStatementsClient), so
 * PostgreSQL parses it once per connection and then only binds and runs it. One name, one text: pg
 * refuses a second text under a name a connection knows.
 */
export const statementName = (name: string) => `${NAMED}${name} */ `;

/** One slow statement must not freeze the embedded database or hold a pooled connection. */
const STATEMENT_TIMEOUT_MS = 15_000;

/**
 * The session defaults every connection of the main pool needs. Sent as startup options on a direct
 * connection; behind a transaction-pooling PgBouncer, which takes no startup options and hands each
 * transaction any server connection, they are the role's settings in this database instead
 * (see `ensureRoleDefaults`). A sequential scan starts where the last one stopped unless told not to:
 * a LIMIT without an order (the catalogue search's window of matches) would then find other rows each time.
 */
const SESSION_DEFAULTS: Record<string, string> = {
  statement_timeout: String(STATEMENT_TIMEOUT_MS),
  synchronize_seqscans: 'off',
};

/** Names a statement whose text opens with `statementName(…)`; every other statement passes as it came. */
class NamedStatementsClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes them through.
  override query(config: any, values?: any, callback?: any): any {
    if (config && typeof config === 'object' && !config.name && typeof config.text === 'string' && config.text.startsWith(NAMED)) {
      return super.query({ ...config, name: config.text.slice(NAMED.length, config.text.indexOf(' */')) }, values, callback);
    }
    return super.query(config, values, callback);
  }
}

/**
 * Settings earlier versions made session defaults. `plan_cache_mode=force_custom_plan` planned every
 * statement on each run; with statistics kept current (lib/analyze.ts) PostgreSQL's default mode
 * keeps a prepared statement's generic plan, which made a purchase's statements much cheaper
 * (ARCHITECTURE.md, "Planner statistics").
 */
const RETIRED_SESSION_SETTINGS = ['plan_cache_mode'];

/**
 * Behind a transaction-pooling PgBouncer a named prepared statement made on one server connection is
 * missing on the next, so the statement's name is dropped and it is parsed on each call (PgBouncer
 * 1.21's max_prepared_statements would keep them, but Debian 12 ships 1.18).
 */
class UnnamedStatementsClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes them through.
  override query(config: any, values?: any, callback?: any): any {
    if (config && typeof config === 'object' && typeof config.name === 'string') {
      const { name: _unused, ...unnamed } = config;
      return super.query(unnamed, values, callback);
    }
    return super.query(config, values, callback);
  }
}

/**
 * Writes SESSION_DEFAULTS as the connecting role's settings in this database when they differ, so
 * every new server connection PgBouncer opens starts with them. Needs no privilege beyond being the role.
 */
async function ensureRoleDefaults(db: Db): Promise<void> {
  const [row] = rowsOf<{ role: string; database: string; settings: string[] }>(
    await db.execute(sql`
    select current_user as role, current_database() as database,
      coalesce((select setconfig from pg_db_role_setting s
        where s.setrole = (select oid from pg_roles where rolname = current_user)
          and s.setdatabase = (select oid from pg_database where datname = current_database())), '{}') as settings`),
  );
  if (!row) throw new Error('PostgreSQL did not say who this connection is.');
  const have = new Set(row.settings);
  // A setting an earlier version wrote and this one no longer wants goes back to the server's default.
  for (const name of RETIRED_SESSION_SETTINGS) {
    if (row.settings.some((s) => s.startsWith(`${name}=`))) {
      await db.execute(sql.raw(`alter role ${pg.escapeIdentifier(row.role)} in database ${pg.escapeIdentifier(row.database)} reset ${name}`));
    }
  }
  for (const [name, value] of Object.entries(SESSION_DEFAULTS)) {
    if (have.has(`${name}=${value}`)) continue;
    await db.execute(
      sql.raw(`alter role ${pg.escapeIdentifier(row.role)} in database ${pg.escapeIdentifier(row.database)} set ${name} = ${pg.escapeLiteral(value)}`),
    );
  }
}

/** One connection of its own for `fn`, closed after. */
async function withDirectClient<T>(url: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, statement_timeout: STATEMENT_TIMEOUT_MS });
  await client.connect();
  try {
    return await fn(drizzlePg(client, { schema }));
  } finally {
    await client.end().catch(() => {});
  }
}

export type OpenDatabaseOptions = {
  /** PostgreSQL (or a PgBouncer in front of it); unset: the embedded PGlite at `pgliteDir`. */
  url?: string;
  /** A direct connection to PostgreSQL for LISTEN and migrations; falls back to `url`. */
  listenUrl?: string;
  /** A streaming replica for reads that may lag (see Database.read). */
  readUrl?: string;
  /** `transaction`: `url` is a PgBouncer in transaction pooling mode (no session state, no named statements). */
  poolMode?: 'session' | 'transaction';
  pgliteDir: string;
};

/**
 * Opens PostgreSQL when a URL is given, else the embedded PGlite persisted at `pgliteDir`
 * (`memory://` keeps it in memory, for tests).
 */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  if (opts.url) {
    const url = opts.url;
    const directUrl = opts.listenUrl ?? url;
    const pooled = opts.poolMode === 'transaction';
    const startupOptions = (settings: Record<string, string>) =>
      Object.entries(settings)
        .filter(([name]) => name !== 'statement_timeout')
        .map(([name, value]) => `-c ${name}=${value}`)
        .join(' ');
    const open = (connectionString: string, max: number, settings: Record<string, string> | null) => {
      const pool = new pg.Pool(
        settings
          ? {
              connectionString,
              max,
              statement_timeout: STATEMENT_TIMEOUT_MS,
              options: startupOptions(settings),
              idleTimeoutMillis: 30_000,
              Client: NamedStatementsClient,
            }
          : { connectionString, max, idleTimeoutMillis: 30_000, Client: UnnamedStatementsClient },
      );
      // A broken idle connection must not crash the process; the pool replaces it.
      pool.on('error', () => {});
      return { pool, db: drizzlePg(pool, { schema }) };
    };
    // Before PgBouncer opens a server connection for us: a connection keeps the role settings it started with.
    if (pooled) await withDirectClient(directUrl, ensureRoleDefaults);
    const main = open(url, 10, pooled ? null : SESSION_DEFAULTS);
    // A replica is reached directly (its own PgBouncer would be in `url`'s mode too).
    const read = opts.readUrl ? open(opts.readUrl, 10, pooled ? null : SESSION_DEFAULTS) : main;
    await main.db.execute(sql`select 1`);
    const pools = [...new Set([main.pool, read.pool])];
    return {
      db: main.db,
      read: read.db,
      kind: 'postgres',
      direct: (fn) => (directUrl === url && !pooled ? fn(main.db) : withDirectClient(directUrl, fn)),
      listen: pgListener(directUrl),
      pools: () =>
        (
          [
            ['main', main.pool],
            ['read', read.pool],
          ] as const
        )
          .filter(([name, p], i, all) => all.findIndex(([, q]) => q === p) === i || name === 'main')
          .map(([name, p]) => ({ name, total: p.totalCount, inUse: p.totalCount - p.idleCount, waiting: p.waitingCount })),
      close: async () => {
        await Promise.all(pools.map((pool) => pool.end()));
      },
    };
  }
  const client = await PGlite.create(opts.pgliteDir, { extensions: { pg_trgm, fuzzystrmatch } });
  await client.exec(`SET statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    read: db,
    kind: 'pglite',
    direct: (fn) => fn(db),
    dumpEmbedded: () => client.dumpDataDir('gzip'),
    listen: async (channel, onMessage) => {
      const unlisten = await client.listen(channel, onMessage);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    close: () => client.close(),
  };
}

/** Makes the embedded database at `pgliteDir` from a `dumpEmbedded` tarball. */
export async function restoreEmbedded(pgliteDir: string, dump: Blob): Promise<void> {
  const client = await PGlite.create(pgliteDir, { extensions: { pg_trgm, fuzzystrmatch }, loadDataDir: dump });
  await client.query('select 1');
  await client.close();
}

export { schema };
