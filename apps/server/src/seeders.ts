import { sql } from 'drizzle-orm';
import type { Db } from './db/client';
import type { SeedImageSize } from './db/seed-images';
import { adoptTemplate, runSeeders, type Seeder } from './db/seeding';
import { categoriesSeeder, demoCatalogSeeder, demoSignIns } from './features/catalog';
import { commerceSettingsSeeder } from './features/ledger';
import { demoSellersSeeder } from './features/sellers';
import { demoSiteSeeder, dictionariesSeeder, siteSeeder } from './features/site/site.seed';
import type { Storage } from './lib/storage';

/** Every feature's seeder, in order; like app.ts, the one place that lists them. */
export const seeders: Seeder[] = [
  siteSeeder,
  dictionariesSeeder,
  commerceSettingsSeeder,
  categoriesSeeder,
  demoSiteSeeder,
  demoCatalogSeeder,
  demoSellersSeeder,
];

/** Seeders whose rows a database seeded under the old single marker already has. */
const legacyNames = ['site', 'categories', 'demo-site', 'demo-catalog'];

export type SeedResult = { ran: string[]; demoAccounts: typeof demoSignIns };

/**
 * Base data always; demo data (accounts with the published password, the demo catalogue) only when
 * `demo` is on. Returns the demo sign-ins only when this run created them.
 */
export async function seedDatabase(db: Db, storage: Storage, opts: { demo: boolean; imageSize?: SeedImageSize; fromTemplate?: string[] }): Promise<SeedResult> {
  // A database copied from the build's template (db/template.ts) gets its files and its own secrets first.
  const adopted = opts.fromTemplate ?? [];
  if (adopted.length) await adoptTemplate(db, seeders, { storage, ran: adopted, imageSize: opts.imageSize });
  const { ran } = await runSeeders(db, seeders, { storage, demo: opts.demo, imageSize: opts.imageSize, legacyNames });
  const all = [...adopted, ...ran];
  return { ran: all, demoAccounts: all.includes(demoCatalogSeeder.name) ? demoSignIns : [] };
}

/** Empties the database, for `npm run seed -- --reset`. */
export async function resetDatabase(db: Db): Promise<void> {
  await db.execute(sql`drop schema if exists public cascade`);
  await db.execute(sql`drop schema if exists drizzle cascade`);
  await db.execute(sql`create schema public`);
}
