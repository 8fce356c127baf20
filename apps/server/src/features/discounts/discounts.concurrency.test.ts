import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerSeller } from '../../../test/accounts';
import { balanceMinor, fund, pendingMinor } from '../../../test/commerce';
import { useTestApp } from '../../../test/test-app';
import { discounts, orderDiscounts, products } from '../../db/schema';
import { checkLedger } from '../ledger';

/**
 * `max_uses` under a race (issue 34): on PostgreSQL 50 purchases with one code race at once; PGlite
 * runs one statement at a time, so it gets the same 50 ten at a time. Either way exactly 10 are
 * discounted, the other 40 are told the code is used up and pay nothing, and the ledger is exact.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const PARALLEL = onPostgres ? 50 : 10;
const PRICE = 1000;

const t = useTestApp({ registration: true });

async function inBatches<T>(jobs: (() => Promise<T>)[], size: number): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < jobs.length; i += size) out.push(...(await Promise.all(jobs.slice(i, i + size).map((job) => job()))));
  return out;
}

describe(`a code with max_uses 10 (${onPostgres ? 'PostgreSQL, 50 at once' : 'PGlite, 10 at a time'})`, () => {
  it('50 parallel purchases: exactly 10 discounted, 40 refused with a 422 on discount_code, nothing charged for them', async () => {
    const creator = await registerSeller(t.app);
    const works = await t.app.db
      .insert(products)
      .values(
        Array.from({ length: 50 }, (_, i) => ({
          slug: `discount-race-${i}-${Date.now()}`,
          title: `Race ${i}`,
          productType: 'prompt' as const,
          promptText: 'A fox',
          authorId: creator.id,
          priceMinor: PRICE,
        })),
      )
      .returning({ id: products.id });
    const made = await creator.client.post('/api/seller/discounts', { code: 'RACE-TEN', kind: 'percent', value: 50, max_uses: 10 });
    expect(made.statusCode).toBe(200);
    const buyer = await registerPerson(t.app);
    await fund(t.app, buyer.id, 50 * PRICE);
    await buyer.client.csrf();

    const results = await inBatches(
      works.map((w) => () => buyer.client.post('/api/purchase/prompt', { prompt_id: w.id, discount_code: 'race-ten' })),
      PARALLEL,
    );
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(10);
    for (const r of ok) expect(r.json().payload.order.amount).toBe(5);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.statusCode).toBe(422);
      expect(r.json().errors.discount_code[0]).toBe('The discount code RACE-TEN has been used up.');
    }
    const [row] = await t.app.db.select().from(discounts).where(eq(discounts.code, 'RACE-TEN'));
    expect(row?.uses).toBe(10);
    expect(await t.app.db.select().from(orderDiscounts).where(eq(orderDiscounts.discountId, row!.id))).toHaveLength(10);
    expect(await balanceMinor(t.app, buyer.id)).toBe(50 * PRICE - 10 * (PRICE / 2));
    expect(await pendingMinor(t.app, creator.id)).toBe(10 * (PRICE / 2) * 0.8);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
