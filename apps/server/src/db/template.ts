import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { seeders } from '../seeders';
import { openDatabase } from './client';
import { runMigrations } from './migrate';
import { runSeeders } from './seeding';

/**
 * A new embedded database costs seconds (initdb, every migration, the seed rows). `npm run build`
 * makes it once per change into dist/db-template/{demo,base}: migrated and seeded (with or without
 * the demo data, as SEED_DEMO asks), without files and without anything one installation must not
 * share with another (the session secret lives in DATA_DIR, not in the database; seeders' `adopt`
 * renews the rest). A first start copies it into DATA_DIR/db instead of creating the database.
 *
 * A template is used only when its version is the one this server was built with: a hash of the code
 * that makes the database (migrations, seeders, dictionaries, the PGlite version), see build.mjs.
 */
export type TemplateVariant = 'demo' | 'base';
type Manifest = { version: string; variant: TemplateVariant; seeders: string[] };

const MANIFEST = 'manifest.json';
const variantOf = (demo: boolean): TemplateVariant => (demo ? 'demo' : 'base');

/** The version this bundle was built with; undefined when running the source (tests, `npm run dev`). */
declare const __ATELIER_DB_TEMPLATE_VERSION__: string | undefined;
export const builtTemplateVersion: string | undefined = typeof __ATELIER_DB_TEMPLATE_VERSION__ === 'string' ? __ATELIER_DB_TEMPLATE_VERSION__ : undefined;

/** dist/db-template beside the bundled server; a folder that never exists when running the source. */
export function builtTemplateDir(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), 'db-template');
}

async function readManifest(dir: string): Promise<Manifest | null> {
  try {
    return JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** Makes `root`/{variant} at `version`, unless it is already there. Returns whether it made it. */
export async function buildDbTemplate(root: string, version: string, variant: TemplateVariant): Promise<boolean> {
  const dir = path.join(root, variant);
  if ((await readManifest(dir))?.version === version) return false;
  const work = `${dir}.tmp`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const database = await openDatabase({ pgliteDir: path.join(work, 'db') });
  let ran: string[];
  try {
    await runMigrations(database);
    // No storage is touched: `files: false` leaves the files to the start that adopts the template.
    const noFiles = null as never;
    ({ ran } = await runSeeders(database.db, seeders, { storage: noFiles, demo: variant === 'demo', files: false }));
    await database.db.execute(sql`checkpoint`);
  } finally {
    await database.close();
  }
  await writeFile(path.join(work, MANIFEST), JSON.stringify({ version, variant, seeders: ran } satisfies Manifest));
  await rm(dir, { recursive: true, force: true });
  await rename(work, dir);
  return true;
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

export type TemplateUse = { used: true; seeders: string[] } | { used: false; reason: 'has-database' | 'no-template' | 'stale' };

/**
 * Copies the template into `pgliteDir` when that folder has no database yet and the template's
 * version is `version`; a database that exists is never touched, and a stale template never used.
 */
export async function copyDbTemplate(opts: { pgliteDir: string; demo: boolean; version?: string; root?: string }): Promise<TemplateUse> {
  if (!(await isEmptyOrMissing(opts.pgliteDir))) return { used: false, reason: 'has-database' };
  const dir = path.join(opts.root ?? builtTemplateDir(), variantOf(opts.demo));
  const manifest = await readManifest(dir);
  if (!manifest || !opts.version || !existsSync(path.join(dir, 'db', 'PG_VERSION'))) return { used: false, reason: 'no-template' };
  if (manifest.version !== opts.version || manifest.variant !== variantOf(opts.demo)) return { used: false, reason: 'stale' };
  // Copied beside, then renamed: a start cut short never leaves half a database behind.
  const work = `${opts.pgliteDir}.template-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  await cp(path.join(dir, 'db'), work, { recursive: true });
  await rm(opts.pgliteDir, { recursive: true, force: true });
  await rename(work, opts.pgliteDir);
  return { used: true, seeders: manifest.seeders };
}
