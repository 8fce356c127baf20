import { shortfallAmount, toBaseMinor, toCurrencyMinor } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerUser } from '../../../test/accounts';
import { balanceMinor, fund, userIdByEmail } from '../../../test/commerce';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { currencies, products } from '../../db/schema';
import { getCommerceSettings } from '../ledger';
import { depositCurrency, quoteDeposit } from './deposits';

/**
 * Hole 6: one exact conversion (packages/shared money) for prices, shortfalls and deposits. A shortfall
 * is shown rounded up, so depositing the amount shown always lets the purchase through.
 */
const t = useTestApp({ seed: true, registration: true });

const year = String(new Date().getUTCFullYear() + 2);

/** Adds funds as a user does: checkout in a currency, the sandbox card page, its signed webhook. */
async function depositIn(client: TestClient, amount: number, currency: string) {
  const res = await client.post('/api/deposit/checkout', { amount, currency, payment_method: 'sandbox-card' });
  expect(res.statusCode).toBe(200);
  const path = new URL(res.json().payload.redirect_url).pathname;
  const paid = await t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ card_number: '4242424242424242', exp_month: '12', exp_year: year, cvc: '123' }).toString(),
  });
  expect(paid.statusCode).toBe(303);
}

describe('hole 6: one exact conversion', () => {
  it('hole 6: at GBP 0.85 a 6.17 € shortfall shows as 5.25 £, and depositing 5.25 £ lets the purchase through', async () => {
    await t.app.db.update(currencies).set({ rate: '0.85' }).where(eq(currencies.code, 'GBP'));
    const seller = await registerUser(t.app);
    const sellerId = await userIdByEmail(t.app, seller.person.email);
    const [product] = await t.app.db
      .insert(products)
      .values({ slug: 'hole-6-shortfall', title: 'Shortfall', productType: 'image', authorId: sellerId, priceMinor: 1117 })
      .returning({ id: products.id });
    const buyer = await registerUser(t.app);
    const buyerId = await userIdByEmail(t.app, buyer.person.email);
    await fund(t.app, buyerId, 500);
    await buyer.client.csrf();
    const short = await buyer.client.request('POST', '/api/purchase/buy', { body: { item_id: product!.id }, headers: { 'x-currency': 'GBP' } });
    expect(short.statusCode).toBe(422);
    // 617 cents × 0.85 = 524.45 pence: shown as 5.25 £ (rounded up), never 5.24 £.
    expect(short.json().errors.balance).toEqual(['Your balance is too low: 5.25 £ is missing. Please add funds to continue.']);
    await depositIn(buyer.client, 5.25, 'GBP');
    expect(await balanceMinor(t.app, buyerId)).toBeGreaterThanOrEqual(1117);
    expect((await buyer.client.post('/api/purchase/buy', { item_id: product!.id })).statusCode).toBe(200);
  });

  it('hole 6: every seeded currency × 1,000 amounts: depositing the displayed shortfall always covers it', async () => {
    const codes = (await t.app.db.select({ code: currencies.code }).from(currencies)).map((c) => c.code);
    expect(codes.length).toBeGreaterThanOrEqual(4);
    const bounds = await getCommerceSettings(t.app.db);
    for (const code of codes) {
      const currency = await depositCurrency(t.app.db, code);
      // The rates a shop really sees too, not only the seeded ones (0.85 is where 5 % of amounts fell short).
      for (const rate of [currency.rate, '0.85', '1.0837', '162.35', '0.00731']) {
        const at = { ...currency, rate };
        for (let i = 0; i < 1000; i++) {
          // Shortfalls from 1 cent to the deposit maximum, spread and irregular.
          const shortfall = 1 + ((i * 7919 + 13) % 100_000);
          const shown = shortfallAmount(shortfall, at);
          const credited = toBaseMinor(Math.round(shown * 10 ** at.decimals), at);
          expect(credited, `${code} at ${rate}: ${shortfall} cents shown as ${shown}`).toBeGreaterThanOrEqual(shortfall);
          // Through the deposit rule itself, when the shortfall is within the bounds (on its EUR value).
          if (credited >= bounds.deposit_min * 100 && credited <= bounds.deposit_max * 100) {
            const quote = quoteDeposit(shown.toFixed(at.decimals), at, bounds);
            expect(quote.amountMinor).toBeGreaterThanOrEqual(shortfall);
          }
        }
      }
    }
  });

  it('a ¥20,000 deposit shows a balance of ¥20,000, not ¥20,001: money held is shown rounded down', async () => {
    await t.app.db.update(currencies).set({ rate: '162' }).where(eq(currencies.code, 'JPY'));
    const buyer = await registerUser(t.app);
    await buyer.client.csrf();
    await depositIn(buyer.client, 20000, 'JPY');
    // 20,000 / 162 = 123.4568 €, credited as 123.46 €, which is ¥20,000.52: the balance reads ¥20,000.
    const balance = await buyer.client.request('GET', '/api/balance', { headers: { 'x-currency': 'JPY' } });
    expect(balance.json().payload).toMatchObject({ amount: 20000, currency: 'JPY', amount_minor: 12346 });
    const profile = await buyer.client.request('GET', '/api/user/profile', { headers: { 'x-currency': 'JPY' } });
    expect(profile.json().payload.balance.amount).toBe(20000);
  });

  it('hole 6: prices, balances and deposits convert alike, in the currency’s own decimals', () => {
    const yen = { rate: '162', decimals: 0 };
    expect(toCurrencyMinor(1000, yen)).toBe(1620);
    expect(toBaseMinor(1620, yen)).toBe(1000);
    expect(shortfallAmount(617, { rate: '0.85', decimals: 2 })).toBe(5.25);
    expect(toCurrencyMinor(617, { rate: '0.85', decimals: 2 }, 'down')).toBe(524);
    // A deposit's amount is exact: 10.10 is 1010 cents, not 1009.9999.
    expect(quoteDeposit('10.10', { code: 'EUR', symbol: '€', rate: '1', decimals: 2 }, { deposit_min: 5, deposit_max: 1000 }).amountMinor).toBe(1010);
    expect(() => quoteDeposit('810.5', { code: 'JPY', symbol: '¥', rate: '162', decimals: 0 }, { deposit_min: 5, deposit_max: 1000 })).toThrow();
  });
});
