import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { findServerFolder } from '../config';
import { analyzeAll } from '../lib/analyze';
import type { Database } from './client';

/** Applies the versioned migrations in apps/server/drizzle; safe to run on every start. */
export async function runMigrations(database: Database): Promise<void> {
  const migrationsFolder = findServerFolder('drizzle');
  if (database.kind === 'postgres') {
    // On the direct connection: through a transaction-pooling PgBouncer the migrator's steps could land on different server connections.
    await database.direct((db) => migratePg(db as never, { migrationsFolder }));
  } else {
    await migratePglite(database.db as never, { migrationsFolder });
  }
  // Statistics for what the migrations made (issue 30: the planner never works from stale ones).
  await analyzeAll(database.db);
}
