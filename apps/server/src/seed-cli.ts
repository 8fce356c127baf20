import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { createStorage } from './lib/storage';
import { resetDatabase, seedDatabase } from './seeders';

/**
 * `npm run seed` adds whatever seed data is missing; `npm run seed -- --reset` starts over.
 * Demo data follows SEED_DEMO (on by default for a local, non-production setup).
 */
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env, process.env.INIT_CWD ?? process.cwd());
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
const reset = process.argv.includes('--reset');
const database = await openDatabase({ url: config.databaseUrl, ...config.database, pgliteDir: path.join(config.dataDir, 'db') });
if (reset) {
  await resetDatabase(database.db);
  if (config.storage.kind === 'local') await rm(path.join(config.dataDir, 'storage'), { recursive: true, force: true });
  console.log(config.storage.kind === 'local' ? 'Database and stored files cleared.' : 'Database cleared (files in the bucket are kept).');
}
await runMigrations(database);
const storage = await createStorage(config);
const result = await seedDatabase(database.db, storage, { demo: config.seedDemo });
console.log(result.ran.length ? `Seeded: ${result.ran.join(', ')}.` : 'Seed data already present; nothing to do (use --reset to start over).');
if (!config.seedDemo) console.log('Demo data is off (SEED_DEMO): no demo accounts were created.');
for (const a of result.demoAccounts) console.log(`  ${a.role.padEnd(6)} ${a.email} / ${a.password}`);
storage.close();
await database.close();
