import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';

/**
 * Planner statistics kept current (issue 30, finding 7). PostgreSQL plans each statement from the
 * statistics ANALYZE gathered; a table analysed while small keeps looking small (a sequential scan
 * looks cheapest) until it is analysed again. PGlite has no autovacuum at all, and a PostgreSQL server
 * may run with it off, so the app does it itself: after migrations and seeding, and on a schedule for
 * the tables that grow with use. Cheap: ANALYZE reads a fixed-size sample of each table.
 */
export const ANALYZE_JOB = 'db.analyze';
/** How often the statistics of the growing tables are refreshed. */
export const ANALYZE_EVERY_SECONDS = 600;

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

export async function analyzeGrowingTables(db: Db): Promise<void> {
  await db.execute(sql.raw(`analyze ${GROWING_TABLES.join(', ')}`));
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
