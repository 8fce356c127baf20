import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../lib/passwords';
import { createLocalStorage } from '../lib/storage';
import { seedDatabase } from '../seeders';
import { openDatabase } from './client';
import { runMigrations } from './migrate';
import { products, siteSettings, users } from './schema';
import { demoAccounts, demoCreators, demoPassword } from './seed-content';
import { buildDbTemplate, copyDbTemplate } from './template';

// The templates a build makes, here under a temporary folder: made once for the whole file.
let root: string;
let work: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'atelier-template-'));
  work = await mkdtemp(path.join(tmpdir(), 'atelier-template-use-'));
  await buildDbTemplate(root, 'v1', 'base');
  await buildDbTemplate(root, 'v1', 'demo');
}, 120_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

describe('the database template of a build', () => {
  it('is not used when it was made by other code than the server that starts', async () => {
    const pgliteDir = path.join(work, 'stale', 'db');
    expect(await copyDbTemplate({ root, pgliteDir, demo: true, version: 'v2' })).toEqual({ used: false, reason: 'stale' });
    expect(await copyDbTemplate({ root, pgliteDir, demo: false, version: 'v2' })).toEqual({ used: false, reason: 'stale' });
    // Running the source (no version built in) never uses one either.
    expect(await copyDbTemplate({ root, pgliteDir, demo: true, version: undefined })).toEqual({ used: false, reason: 'no-template' });
    expect(existsSync(pgliteDir)).toBe(false);
    // A build made again with new code replaces it, and the old version is not accepted any more.
    const other = await mkdtemp(path.join(tmpdir(), 'atelier-template-other-'));
    try {
      await buildDbTemplate(other, 'v1', 'base');
      expect(await buildDbTemplate(other, 'v1', 'base')).toBe(false);
      expect(await buildDbTemplate(other, 'v3', 'base')).toBe(true);
      expect(await copyDbTemplate({ root: other, pgliteDir, demo: false, version: 'v1' })).toEqual({ used: false, reason: 'stale' });
      expect(existsSync(pgliteDir)).toBe(false);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  }, 120_000);

  it('never replaces a database that exists', async () => {
    const pgliteDir = path.join(work, 'existing', 'db');
    const first = await copyDbTemplate({ root, pgliteDir, demo: false, version: 'v1' });
    expect(first.used).toBe(true);
    const database = await openDatabase({ pgliteDir });
    await database.db.insert(siteSettings).values({ key: 'mine', value: 'kept' });
    await database.close();
    expect(await copyDbTemplate({ root, pgliteDir, demo: true, version: 'v1' })).toEqual({ used: false, reason: 'has-database' });
    const again = await openDatabase({ pgliteDir });
    const [row] = await again.db.select().from(siteSettings).where(eq(siteSettings.key, 'mine'));
    await again.close();
    expect(row?.value).toBe('kept');
  }, 60_000);

  it('with SEED_DEMO off holds the store with no account at all', async () => {
    const pgliteDir = path.join(work, 'base', 'db');
    const use = await copyDbTemplate({ root, pgliteDir, demo: false, version: 'v1' });
    expect(use).toEqual({ used: true, seeders: expect.arrayContaining(['site', 'categories']) });
    expect(use.used && use.seeders).not.toContain('demo-catalog');
    const database = await openDatabase({ pgliteDir });
    try {
      await runMigrations(database);
      const storage = createLocalStorage(path.join(work, 'base-data'));
      const seeded = await seedDatabase(database.db, storage, { demo: false, fromTemplate: use.used ? use.seeders : [] });
      expect(seeded.demoAccounts).toEqual([]);
      const [count] = await database.db.select({ n: sql<number>`count(*)::int` }).from(users);
      expect(count?.n).toBe(0);
      const [site] = await database.db.select().from(siteSettings).where(eq(siteSettings.key, 'support_email'));
      expect(site?.value).toBe('support@atelier.example');
    } finally {
      await database.close();
    }
  }, 60_000);

  it('with demo data becomes this installation’s own: its files, fresh secrets for the locked creators, dates from now', async () => {
    const templateDb = await openDatabase({ pgliteDir: path.join(root, 'demo', 'db') });
    const creatorEmails = demoCreators.map((c) => c.email);
    const templateHashes = await templateDb.db.select({ hash: users.passwordHash }).from(users).where(inArray(users.email, creatorEmails));
    await templateDb.close();

    const dataDir = path.join(work, 'demo-data');
    const pgliteDir = path.join(dataDir, 'db');
    const use = await copyDbTemplate({ root, pgliteDir, demo: true, version: 'v1' });
    expect(use.used && use.seeders).toContain('demo-catalog');
    const database = await openDatabase({ pgliteDir });
    try {
      await runMigrations(database);
      // Pretend the build was a month ago, as the template's markers would say.
      const monthAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000);
      await database.db.update(products).set({ createdAt: monthAgo });
      await database.db.update(users).set({ createdAt: monthAgo });
      await database.db.update(siteSettings).set({ value: monthAgo.toISOString() }).where(sql`${siteSettings.key} like 'seed:%'`);

      const storage = createLocalStorage(dataDir);
      const seeded = await seedDatabase(database.db, storage, { demo: true, imageSize: 'small', fromTemplate: use.used ? use.seeders : [] });
      expect(seeded.demoAccounts.map((a) => a.email)).toEqual(demoAccounts.map((a) => a.email));

      const creators = await database.db.select({ hash: users.passwordHash }).from(users).where(inArray(users.email, creatorEmails));
      expect(creators).toHaveLength(creatorEmails.length);
      for (const c of creators) expect(templateHashes.map((t) => t.hash)).not.toContain(c.hash);
      const [buyer] = await database.db.select().from(users).where(eq(users.email, 'buyer@example.com'));
      expect(await verifyPassword(buyer!.passwordHash, demoPassword)).toBe(true);
      expect(Math.abs(buyer!.createdAt.getTime() - Date.now())).toBeLessThan(5 * 60_000);
      const [newest] = await database.db.select({ at: sql<string>`max(${products.createdAt})` }).from(products);
      expect(Math.abs(new Date(newest!.at).getTime() - Date.now())).toBeLessThan(5 * 60_000);

      // The previews the catalogue names are in storage.
      const [product] = await database.db.select({ preview: products.previewPath }).from(products).limit(1);
      expect(existsSync(path.join(dataDir, 'storage', 'public', product!.preview!))).toBe(true);
    } finally {
      await database.close();
    }
  }, 120_000);
});
