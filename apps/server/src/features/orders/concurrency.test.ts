import { describe, expect, it } from 'vitest';
import { registerUser } from '../../../test/accounts';
import { balanceMinor, pendingMinor, revenueMinor, userIdByEmail } from '../../../test/commerce';
import { depositByTestCard } from '../../../test/payments';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { products } from '../../db/schema';
import { checkLedger, totalUserBalances } from '../ledger';
import { creditedDepositsTotal } from '../payments';

/**
 * Money under concurrency: on PostgreSQL all 50 purchases race at once; the embedded PGlite runs
 * one statement at a time anyway, so it gets the same 50 purchases 10 at a time. Both must be exact.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const PARALLEL = onPostgres ? 50 : 10;
const PRICE = 300;

const t = useTestApp({ registration: true });

/** Adds funds the way a user does: the sandbox card page, then its signed webhook. */
const deposit = (client: TestClient, euros: number) => depositByTestCard(t.app, client, euros);

async function inBatches<T>(jobs: (() => Promise<T>)[], size: number): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < jobs.length; i += size) out.push(...(await Promise.all(jobs.slice(i, i + size).map((job) => job()))));
  return out;
}

describe(`concurrent purchases (${onPostgres ? 'PostgreSQL, 50 at once' : 'PGlite, 10 at a time'})`, () => {
  it('50 purchases by a buyer whose balance covers 10: exactly 10 succeed and no cent is made or lost', async () => {
    const seller = await registerUser(t.app);
    const sellerId = await userIdByEmail(t.app, seller.person.email);
    const made = await t.app.db
      .insert(products)
      .values(
        Array.from({ length: 50 }, (_, i) => ({ slug: `race-${i}`, title: `Race ${i}`, productType: 'image' as const, authorId: sellerId, priceMinor: PRICE })),
      )
      .returning({ id: products.id });
    const buyer = await registerUser(t.app);
    const buyerId = await userIdByEmail(t.app, buyer.person.email);
    await deposit(buyer.client, (10 * PRICE) / 100);
    expect(await balanceMinor(t.app, buyerId)).toBe(10 * PRICE);
    await buyer.client.csrf();

    const results = await inBatches(
      made.map((p) => () => buyer.client.post('/api/purchase/buy', { item_id: p.id })),
      PARALLEL,
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 422)).toHaveLength(40);
    for (const r of results.filter((r) => r.statusCode === 422)) expect(r.json().message).toMatch(/^Your balance is too low: 3\.00 € is missing/);
    expect(await balanceMinor(t.app, buyerId)).toBe(0);
    expect((await buyer.client.get('/api/purchase/history')).json().payload).toHaveLength(10);

    const commission = 10 * Math.round(PRICE * 0.2);
    expect(await pendingMinor(t.app, sellerId)).toBe(10 * PRICE - commission);
    expect(await revenueMinor(t.app)).toBe(commission);
    const ledger = await checkLedger(t.app.db);
    expect(ledger).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
    // Users hold what was deposited, less what went to the platform.
    expect((await totalUserBalances(t.app.db)) + (await revenueMinor(t.app))).toBe(await creditedDepositsTotal(t.app.db));
  });

  it('the same product bought many times at once is sold once', async () => {
    const seller = await registerUser(t.app);
    const sellerId = await userIdByEmail(t.app, seller.person.email);
    const [product] = await t.app.db
      .insert(products)
      .values({ slug: 'race-single', title: 'Race single', productType: 'image', authorId: sellerId, priceMinor: PRICE })
      .returning({ id: products.id });
    const buyer = await registerUser(t.app);
    const buyerId = await userIdByEmail(t.app, buyer.person.email);
    await deposit(buyer.client, 50);
    await buyer.client.csrf();
    const results = await inBatches(
      Array.from({ length: 20 }, () => () => buyer.client.post('/api/purchase/buy', { item_id: product!.id })),
      onPostgres ? 20 : 5,
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.statusCode !== 200)) {
      expect(r.statusCode).toBe(422);
      expect(r.json().message).toBe('You already own this product.');
    }
    expect(await balanceMinor(t.app, buyerId)).toBe(5000 - PRICE);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
