import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson } from '../../../test/accounts';
import { depositByTestCard } from '../../../test/payments';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { deposits, orders, products } from '../../db/schema';
import { checkLedger } from '../ledger';

/**
 * Invoice numbers under concurrency (issue 33): on PostgreSQL 50 purchases race at once, then their
 * receipt jobs and the buyer's invoice downloads race to number them: 50 numbers in a row, no gap and
 * no number twice; PGlite runs one statement at a time, 10 at a time.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const PARALLEL = onPostgres ? 50 : 10;
const PRICE = 119;

const t = useTestApp({ registration: true });

/** Adds funds the way a user does with a German test card (its BIN says Germany): the sandbox card page, then its signed webhook. */
const depositWithGermanCard = (client: TestClient, euros: number) => depositByTestCard(t.app, client, euros, '4000002760000016');

describe(`invoice numbers under concurrency (${onPostgres ? 'PostgreSQL, 50 at once' : 'PGlite, 10 at a time'})`, () => {
  it('50 parallel purchases get 50 consecutive invoice numbers; the sandbox card’s BIN says Germany, so each carries German VAT', async () => {
    const seller = await registerPerson(t.app);
    const buyer = await registerPerson(t.app);
    await depositWithGermanCard(buyer.client, (PRICE * 50) / 100);
    const [deposit] = await t.app.db.select({ country: deposits.cardCountry }).from(deposits).where(eq(deposits.userId, buyer.id));
    expect(deposit!.country).toBe('DE');
    const made = await t.app.db
      .insert(products)
      .values(
        Array.from({ length: 50 }, (_, i) => ({
          slug: `inv-race-${i}`,
          title: `Invoice race ${i}`,
          productType: 'image' as const,
          authorId: seller.id,
          priceMinor: PRICE,
        })),
      )
      .returning({ id: products.id });
    const buy = (id: number) => () => buyer.client.post('/api/purchase/buy', { item_id: id });
    const results = [];
    for (let i = 0; i < made.length; i += PARALLEL) results.push(...(await Promise.all(made.slice(i, i + PARALLEL).map((p) => buy(p.id)()))));
    expect(results.map((r) => r.statusCode)).toEqual(made.map(() => 200));
    const ids = results.map((r) => r.json().payload.order.id as number);
    // Each order is numbered after its commit: by its receipt job or by the first download of its
    // invoice, whichever comes first; here both at once, for every order.
    const downloads = ids.map((id) => buyer.client.get(`/api/orders/${id}/invoice.pdf`));
    const [pdfs] = await Promise.all([Promise.all(downloads), t.app.jobs.runDue()]);
    expect(pdfs.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
    const rows = await t.app.db
      .select({ n: orders.invoiceNumber, country: orders.taxCountry, vat: orders.vatMinor })
      .from(orders)
      .where(inArray(orders.id, ids));
    const numbers = rows.map((r) => Number(r.n!.slice(5))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => numbers[0]! + i));
    expect(new Set(rows.map((r) => r.n)).size).toBe(50);
    // 1.19 € at 19 %: 0.19 € of VAT each.
    expect(rows.every((r) => r.country === 'DE' && r.vat === 19)).toBe(true);
    const check = await checkLedger(t.app.db);
    expect(check).toMatchObject({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
