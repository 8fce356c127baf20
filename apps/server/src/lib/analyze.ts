import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Db, rowsOf } from '../db/client';

/**
 * Planner statistics kept current (issue 30, finding 7). PostgreSQL plans each statement from the
 * statistics ANALYZE gathered; a table analysed while small keeps looking small (a sequential scan
 * looks cheapest) until it is analysed again. PGlite has no autovacuum at all, and a PostgreSQL server
 * may run with it off, so the app does it itself: after migrations and seeding, and on a schedule for
 * the tables that grow with use, as soon as they have grown. Cheap: ANALYZE reads a fixed-size sample
 * of each table. With statistics kept current, the pool runs PostgreSQL's default plan cache mode
 * (db/client.ts; measured in ARCHITECTURE.md).
 */
export const ANALYZE_JOB = 'db.analyze';
/** How often the growing tables are looked at (a cheap look: their size against the size ANALYZE last saw). */
export const ANALYZE_EVERY_SECONDS = 60;

/** The tables that grow with every sale, movement and message. */
const GROWING_TABLES = [
  'ledger_entries',
  'ledger_transactions',
  'ledger_accounts',
  'orders',
  'order_items',
  'user_products',
  'cart_items',
  'chat_messages',
  'refund_requests',
  'deposits',
  'payouts',
  'notifications',
  'jobs',
  'idempotency_keys',
  'products',
  'users',
];

/**
 * ANALYZEs the tables that have grown by more than a tenth (and two pages) since they were last
 * analysed, or were never analysed: PostgreSQL then plans again every cached plan that reads them
 * (prepared statements, the ledger's triggers, foreign-key checks), so a plan made while a table was
 * small (a sequential scan) lasts at most one round of this job. Measured by pages, since PGlite keeps
 * no row counts between ANALYZEs (its pg_stat_user_tables stays at zero). Returns the tables analysed.
 */
export async function analyzeGrowingTables(db: Db, tables: readonly string[] = GROWING_TABLES): Promise<string[]> {
  const grown = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_class c
      where c.oid in (select to_regclass(t) from unnest(${sql.param(tables)}::text[]) t) and c.relkind = 'r'
        and (c.reltuples < 0 or pg_relation_size(c.oid) / current_setting('block_size')::bigint > c.relpages * 1.1 + 2)
      order by c.relname`),
  ).map((r) => r.name);
  if (grown.length) await db.execute(sql.raw(`analyze ${grown.map((name) => `"${name}"`).join(', ')}`));
  return grown;
}

/** Every table of the database, after migrations or seeding changed them. */
export async function analyzeAll(db: Db): Promise<void> {
  await db.execute(sql`analyze`);
}

export function registerAnalyzeJob(app: FastifyInstance) {
  app.jobs.register(ANALYZE_JOB, async (_payload, ctx) => {
    await analyzeGrowingTables(ctx.db);
  });
  app.jobs.schedule(ANALYZE_JOB, ANALYZE_EVERY_SECONDS);
}
