import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { signIn } from '../test/accounts';
import { fund, seededProducts, userIdByEmail } from '../test/commerce';
import { buildApp } from './app';
import { serveEmbeddedBackups } from './backup';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { ledgerAccounts, orders, userProducts } from './db/schema';
import { seedDatabase } from './seeders';

/**
 * The backup round trip the README describes: data in, `npm run backup` (from the running app, and
 * from the stopped one on the embedded database), `npm run restore` into a fresh DATA_DIR (and a new
 * database on PostgreSQL), start, and the same orders, balances and files come back with the
 * reconciliation green. The CLI runs as its own process, as an operator runs it.
 */
const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const serverUrl = process.env.DATABASE_URL;
const made: string[] = [];
const databases: string[] = [];
/** The first test's restored folder and what it held, for the second. */
let restoredInto: { dir: string; db: string | undefined } = { dir: '', db: undefined };
let expected: Awaited<ReturnType<typeof snapshot>>;

async function scratchDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'atelier-bk-'));
  made.push(dir);
  return dir;
}

/** A new empty database on the PostgreSQL server, or undefined on the embedded database. */
async function scratchDatabase(): Promise<string | undefined> {
  if (!serverUrl) return undefined;
  const name = `atelier_bk_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  databases.push(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
  if (serverUrl && databases.length) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
});

/** The app as `npm start` opens it on DATA_DIR (and DATABASE_URL): migrated, and seeded when asked. */
async function startApp(dataDir: string, databaseUrl: string | undefined, seed: boolean) {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: path.join(dataDir, 'no-web'), DATABASE_URL: databaseUrl });
  const database = await openDatabase({ url: databaseUrl, pgliteDir: path.join(dataDir, 'db') });
  await runMigrations(database);
  const app = await buildApp({ config, database, logger: false });
  if (seed) await seedDatabase(app.db, app.storage, { demo: true, imageSize: 'small' });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** Runs `npm run backup`/`restore`'s CLI with the app's environment; resolves to its exit code and output. */
async function cli(args: string[], dataDir: string, databaseUrl: string | undefined) {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', LOG_LEVEL: 'silent' };
  delete env.SESSION_SECRET;
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/backup-cli.ts'), ...args], { env, cwd: root });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, out: e.stderr };
  }
}

/** What must survive: the orders, every account's balance, who owns what, and every stored file's bytes. */
async function snapshot(app: FastifyInstance, dataDir: string) {
  const files: Record<string, string> = {};
  const storage = path.join(dataDir, 'storage');
  for (const entry of await readdir(storage, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(storage, full)] = createHash('sha256')
      .update(await readFile(full))
      .digest('hex');
  }
  return {
    orders: await app.db
      .select({ id: orders.id, buyer: orders.buyerId, amount: orders.amountMinor, status: orders.status })
      .from(orders)
      .orderBy(asc(orders.id)),
    balances: await app.db.select({ id: ledgerAccounts.id, balance: ledgerAccounts.balanceMinor }).from(ledgerAccounts).orderBy(asc(ledgerAccounts.id)),
    owned: await app.db.select().from(userProducts).orderBy(asc(userProducts.userId), asc(userProducts.productId)),
    files,
  };
}

async function reconciliationOk(app: FastifyInstance) {
  const { client } = await signIn(app, 'admin@example.com', 'atelier-demo');
  const res = await client.get('/api/admin/ledger/reconciliation');
  expect(res.statusCode).toBe(200);
  return res.json().payload.ok as boolean;
}

describe('backup and restore', () => {
  it('a backup restored into a fresh folder brings back the same orders, balances and files, with the reconciliation green', { timeout: 240_000 }, async () => {
    const source = await scratchDir();
    const sourceDb = await scratchDatabase();
    const first = await startApp(source, sourceDb, true);
    const buyerId = await userIdByEmail(first.app, 'buyer@example.com');
    await fund(first.app, buyerId, 50_00);
    const { client: buyer } = await signIn(first.app, 'buyer@example.com', 'atelier-demo');
    const bought: number[] = [];
    for (const product of (await seededProducts(first.app, 'image')).slice(0, 2)) {
      const res = await buyer.post('/api/purchase/buy', { item_id: product.id });
      expect(res.statusCode, res.body).toBe(200);
      bought.push(product.id);
    }
    const before = await snapshot(first.app, source);
    expect(before.orders.length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(before.files).length).toBeGreaterThan(0);
    expect(await reconciliationOk(first.app)).toBe(true);

    // From the running app: the embedded database is copied by the server itself, through DATA_DIR/backup.sock.
    const stopBackups = await serveEmbeddedBackups(source, first.database);
    const file = path.join(await scratchDir(), 'atelier.backup');
    const backup = await cli(['backup', '--out', file], source, sourceDb);
    await stopBackups();
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain(sourceDb ? 'pg_dump' : 'copied by the running server');
    await first.close();

    const target = await scratchDir();
    const targetDb = await scratchDatabase();
    const restored = await cli(['restore', file], target, targetDb);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toContain('the stored files');

    // A second restore into the now full folder/database is refused with a sentence, and changes nothing.
    const again = await cli(['restore', file], target, targetDb);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/already (holds|has)[^.]*: restore fills only an empty/);

    const second = await startApp(target, targetDb, false);
    try {
      expect(await snapshot(second.app, target)).toEqual(before);
      restoredInto = { dir: target, db: targetDb };
      expected = before;
      expect(await reconciliationOk(second.app)).toBe(true);
      // The buyer signs in on the restored app (the session secret came back) and downloads what they bought.
      const { client } = await signIn(second.app, 'buyer@example.com', 'atelier-demo');
      const library = await client.get('/api/user/profile');
      expect(library.statusCode).toBe(200);
      const order = before.orders.at(-1)!;
      const download = await client.get(`/api/user/media/download?id=${order.id}&product_id=${bought.at(-1)}`);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.length).toBeGreaterThan(100);
    } finally {
      await second.close();
    }
  });

  it('a backup of a stopped app restores too, and restore refuses a folder or database that has one', { timeout: 240_000 }, async () => {
    // The first test's restored folder (and database), its app stopped again.
    const file = path.join(await scratchDir(), 'stopped.backup');
    const backup = await cli(['backup', '--out', file], restoredInto.dir, restoredInto.db);
    expect(backup.code, backup.out).toBe(0);
    // The embedded database is opened by the backup itself when no server answers; pg_dump needs no server of ours.
    expect(backup.out).toContain(serverUrl ? 'pg_dump' : 'the embedded database of the stopped app');

    const refused = await cli(['restore', file], restoredInto.dir, restoredInto.db);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(
      serverUrl ? /already has tables: restore fills only an empty database/ : /already holds a database: restore fills only an empty DATA_DIR/,
    );

    const target = await scratchDir();
    const targetDb = await scratchDatabase();
    expect((await cli(['restore', file], target, targetDb)).code).toBe(0);
    const second = await startApp(target, targetDb, false);
    try {
      expect(await snapshot(second.app, target)).toEqual(expected);
    } finally {
      await second.close();
    }
  });
});
