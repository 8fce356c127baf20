import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, inArray, like, sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import type { Db } from '../../apps/server/src/db/client';
import { openDatabase } from '../../apps/server/src/db/client';
import { runMigrations } from '../../apps/server/src/db/migrate';
import { ledgerAccounts, orders, products, userProducts, users } from '../../apps/server/src/db/schema';
import {
  checkLedger,
  clearingAccountCode,
  platformRevenueMinor,
  systemAccountId,
  totalUserBalances,
  transfer,
  userAccountId,
} from '../../apps/server/src/features/ledger';
import { hashPassword } from '../../apps/server/src/lib/passwords';
import { seedDatabase } from '../../apps/server/src/seeders';
import { type LoadLane, runLoad } from '../http-load';
import type { BenchCase } from '../run';
import { createScratchDatabase } from '../scratch-db';
import { bulkInsertProducts } from '../seed-products';

const BUYERS = 16;
/** Products each buyer may buy over all rounds; a third of the bulk products are prompts, which /purchase/buy refuses. */
const PER_BUYER = Number(process.env.BENCH_PURCHASES_PER_BUYER ?? 600);
const PRODUCTS = Math.ceil((BUYERS * PER_BUYER * 3) / 2) + 30;
const WARMUP = { maxRequests: 400, maxMs: 1_500 };
const ROUND = { maxRequests: 2_000, maxMs: 4_000 };
const ROUNDS = 3;
const TARGET_RATIO = 0.35;
const PASSWORD = 'bench-buyer-password-42';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Every Set-Cookie of a response merged into a cookie jar. */
function absorb(jar: Map<string, string>, res: Response) {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    const name = pair!.slice(0, at).trim();
    const value = pair!.slice(at + 1).trim();
    if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}
const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

/** Signs in through the real API as a browser does: the XSRF cookie first, then POST /api/login. */
async function signIn(base: string, email: string): Promise<Record<string, string>> {
  const jar = new Map<string, string>();
  absorb(jar, await fetch(`${base}/sanctum/csrf-cookie`));
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: cookieHeader(jar), 'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? '') },
    body: JSON.stringify({ username: email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${await res.text()}`);
  absorb(jar, res);
  return { cookie: cookieHeader(jar), 'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? '') };
}

/** Credits a buyer as a settled card deposit does: one journal transaction, sandbox clearing → user. */
async function fund(db: Db, userId: number, minor: number) {
  await db.transaction(async (tx) => {
    const clearing = await systemAccountId(tx, clearingAccountCode('sandbox'));
    await transfer(tx, {
      lines: [
        { accountId: clearing, amountMinor: -minor },
        { accountId: await userAccountId(tx, userId), amountMinor: minor },
      ],
      kind: 'deposit',
      reason: 'bench deposit',
    });
  });
}

/** Money held by users (buyers and authors) plus platform revenue (all its accounts): only deposits may change it. */
async function heldMinor(db: Db): Promise<number> {
  return (await totalUserBalances(db)) + (await platformRevenueMinor(db));
}

/**
 * Purchases over HTTP on PostgreSQL (a scratch database, dropped afterwards): 16 signed-in buyers,
 * each funded through the ledger, each one client buying distinct products with POST /api/purchase/buy
 * one after another, against an authenticated GET /api/user/profile by the same clients in the same
 * run. Afterwards the ledger must reconcile to the cent. Target: purchases at >= 35% of the profile rate (issue 30).
 */
export const purchaseThroughput: BenchCase = {
  name: 'purchase throughput (PostgreSQL, 16 buyers) vs authenticated GET /user/profile',
  async run() {
    const scratch = await createScratchDatabase();
    const url = new URL(scratch.url);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-bench-'));
    const config = loadConfig({
      NODE_ENV: 'production',
      // The bench pays with the sandbox on purpose (a production start must say so).
      PAYMENT_PROVIDER: 'sandbox',
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      LOG_LEVEL: 'silent',
      SESSION_SECRET: 'b'.repeat(40),
      WEB_DIST: path.join(dataDir, 'none'),
    });
    const database = await openDatabase({ url: url.toString(), pgliteDir: '' });
    let app: Awaited<ReturnType<typeof buildApp>> | null = null;
    try {
      await runMigrations(database);
      app = await buildApp({ config, database, logger: false });
      const db = app.db;
      await seedDatabase(db, app.storage, { demo: true, imageSize: 'small' });
      await bulkInsertProducts(db, PRODUCTS);

      const passwordHash = await hashPassword(PASSWORD);
      const buyers = await db
        .insert(users)
        .values(
          Array.from({ length: BUYERS }, (_, i) => ({
            email: `bench-buyer-${i}@example.com`,
            passwordHash,
            name: 'Buyer',
            surname: `Bench ${i}`,
            nickname: `bench_buyer_${i}`,
            emailVerifiedAt: new Date(),
          })),
        )
        .returning({ id: users.id, email: users.email });
      const forSale = await db
        .select({ id: products.id, price: products.priceMinor })
        .from(products)
        .where(and(like(products.slug, 'bench-%'), inArray(products.productType, ['image', 'doc'])))
        .orderBy(asc(products.id))
        .limit(BUYERS * PER_BUYER);
      if (forSale.length < BUYERS * PER_BUYER) throw new Error(`expected ${BUYERS * PER_BUYER} image and doc products, found ${forSale.length}`);
      // Buyer i gets every BUYERS-th product, so lanes buy distinct products at similar prices.
      const shares = buyers.map((_, i) => forSale.filter((_, j) => j % BUYERS === i));

      const heldBefore = await heldMinor(db);
      let deposited = 0;
      for (const [i, buyer] of buyers.entries()) {
        const amount = sum(shares[i]!.map((p) => Number(p.price)));
        await fund(db, buyer.id, amount);
        deposited += amount;
      }

      await app.listen({ host: '127.0.0.1', port: 0 });
      const port = (app.server.address() as AddressInfo).port;
      const base = `http://127.0.0.1:${port}`;
      const sessions: Record<string, string>[] = [];
      for (const buyer of buyers) sessions.push(await signIn(base, buyer.email));

      const profileLanes: LoadLane[] = sessions.map((headers) => ({ headers }));
      const next = buyers.map(() => 0);
      let bought = 0;
      async function purchases(bounds: { maxRequests: number; maxMs: number }) {
        const lanes: LoadLane[] = sessions.map((headers, i) => ({
          headers,
          bodies: shares[i]!.slice(next[i]).map((p) => JSON.stringify({ item_id: p.id })),
        }));
        const r = await runLoad({ port, paths: ['/api/purchase/buy'], method: 'POST', lanes, ...bounds });
        r.used.forEach((n, i) => {
          next[i]! += n;
        });
        bought += r.statuses['200'] ?? 0;
        if (r.errors > 0) throw new Error(`${r.errors} purchases failed: ${JSON.stringify(r.statuses)}`);
        if (r.used.some((n, i) => n === 0 && next[i]! >= shares[i]!.length)) throw new Error('a buyer ran out of products; raise BENCH_PURCHASES_PER_BUYER');
        return r;
      }
      const profiles = async (bounds: { maxRequests: number; maxMs: number }) => {
        const r = await runLoad({ port, paths: ['/api/user/profile'], lanes: profileLanes, ...bounds });
        if (r.errors > 0) throw new Error(`${r.errors} profile requests failed: ${JSON.stringify(r.statuses)}`);
        return r;
      };

      await profiles(WARMUP);
      await purchases(WARMUP);
      const baseline: number[] = [];
      const target: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        baseline.push((await profiles({ maxRequests: 20_000, maxMs: ROUND.maxMs })).perSecond);
        target.push((await purchases(ROUND)).perSecond);
      }
      await app.close();
      app = null;

      // Exactness: the journal balances, no cent was made or lost, and every answered sale is one order.
      const ledger = await checkLedger(db);
      const centsOff = (await heldMinor(db)) - (heldBefore + deposited);
      const buyerIds = buyers.map((b) => b.id);
      const [orderRows] = await db
        .select({ n: sql<string>`count(*)`, spent: sql<string>`coalesce(sum(${orders.amountMinor}), 0)` })
        .from(orders)
        .where(inArray(orders.buyerId, buyerIds));
      const [owned] = await db.select({ n: sql<string>`count(*)` }).from(userProducts).where(inArray(userProducts.userId, buyerIds));
      const buyerBalances = await db.select({ b: ledgerAccounts.balanceMinor }).from(ledgerAccounts).where(inArray(ledgerAccounts.userId, buyerIds));
      const spentByBalance = deposited - sum(buyerBalances.map((r) => Number(r.b)));
      const problems: string[] = [];
      if (ledger.unbalancedTransactions.length) problems.push(`${ledger.unbalancedTransactions.length} unbalanced journal transactions`);
      if (ledger.driftedAccounts.length) problems.push(`${ledger.driftedAccounts.length} accounts drifted from their entries`);
      if (ledger.totalMinor !== 0) problems.push(`the ledger sums to ${ledger.totalMinor}, not 0`);
      if (centsOff !== 0) problems.push(`users and revenue hold ${centsOff} cents more than was deposited`);
      if (Number(orderRows!.n) !== bought) problems.push(`${bought} purchases answered 200 but ${orderRows!.n} orders exist`);
      if (Number(owned!.n) !== bought) problems.push(`${bought} purchases answered 200 but buyers own ${owned!.n} products`);
      if (Number(orderRows!.spent) !== spentByBalance) problems.push(`orders total ${orderRows!.spent} cents, balances fell by ${spentByBalance}`);

      const value = sum(target) / target.length;
      const base2 = sum(baseline) / baseline.length;
      const ratio = value / base2;
      console.log(
        `  profile rounds: ${baseline.map((v) => v.toFixed(0)).join(', ')} req/s; purchase rounds: ${target.map((v) => v.toFixed(0)).join(', ')} req/s`,
      );
      console.log(
        `  ${bought} purchases (${(Number(orderRows!.spent) / 100).toFixed(2)} EUR) from ${(deposited / 100).toFixed(2)} EUR deposited; ` +
          `ledger: ${ledger.unbalancedTransactions.length} unbalanced, ${ledger.driftedAccounts.length} drifted, total ${ledger.totalMinor}; ` +
          `${centsOff === 0 ? '0 cents off' : `${centsOff} cents off`}`,
      );
      console.log(`  purchases/s ÷ profile/s = ${ratio.toFixed(3)} (target >= ${TARGET_RATIO}): ${ratio >= TARGET_RATIO ? 'meets target' : 'misses target'}`);
      if (problems.length) throw new Error(`the ledger is not exact: ${problems.join('; ')}`);
      return {
        name: 'purchase throughput',
        value,
        baseline: base2,
        unit: 'req/s',
        ratio,
        target: `ratio >= ${TARGET_RATIO}, 0 cents off`,
        pass: ratio >= TARGET_RATIO && centsOff === 0,
      };
    } finally {
      if (app) await app.close();
      await database.close();
      await scratch.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
