import { rm } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../config';
import { createStorage } from '../lib/storage';
import { openDatabase } from './client';
import { runMigrations } from './migrate';
import { resetDatabase, seedDemoData } from './seed';

/** `npm run seed` adds the demo data if missing; `npm run seed -- --reset` starts over. */
const config = loadConfig(process.env, process.env.INIT_CWD ?? process.cwd());
const reset = process.argv.includes('--reset');
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
if (reset) {
  await resetDatabase(database.db);
  // Files in a bucket stay: keys are rewritten by the seed, and a shared bucket is not this command's to empty.
  if (config.storage.kind === 'local') await rm(path.join(config.dataDir, 'storage'), { recursive: true, force: true });
  console.log(config.storage.kind === 'local' ? 'Database and stored files cleared.' : 'Database cleared (files in the bucket are kept).');
}
await runMigrations(database);
const storage = await createStorage(config);
const result = await seedDemoData(database.db, storage);
console.log(result.created ? 'Demo data created.' : 'Demo data already present; nothing to do (use --reset to start over).');
for (const a of result.accounts) console.log(`  ${a.role.padEnd(6)} ${a.email} / ${a.password}`);
storage.close();
await database.close();
