import { describe, expect, it } from 'vitest';
import { registerUser } from '../../../test/accounts';
import { userIdByEmail } from '../../../test/commerce';
import { useTestApp } from '../../../test/test-app';
import { PAYMENT_STARTS, PENDING_PAYMENTS_MAX, startWidgetCheckout } from './card-payments';

/**
 * Hole 13: amounts are a JSON number or a plain decimal string, nothing looser; a user has at most
 * 5 payments waiting in `processing`; starting payments (checkout, the card widget) is rate-limited.
 * On PostgreSQL the parallel checkouts race for real; PGlite runs them one statement at a time.
 */
const t = useTestApp({ seed: true });

async function user() {
  const { client, person } = await registerUser(t.app);
  await client.csrf();
  return { client, person, id: await userIdByEmail(t.app, person.email) };
}

const LOOSE_AMOUNT = 'Please enter the amount as a number such as 12.50: digits, and a point before the decimals.';

describe('hole 13: payment inputs and limits', () => {
  it('hole 13: an amount is a JSON number or a plain decimal string only ([5], "0x10", " 7 " are 422)', async () => {
    const { client } = await user();
    const check = (amount: unknown) => client.post('/api/deposit/validate-amount', { amount, currency: 'EUR' });
    for (const loose of [[5], '0x10', ' 7 ', '7 ', '1e3', '', '+7', '.5', '5.', true, null, { value: 5 }]) {
      const res = await check(loose);
      expect(res.statusCode, JSON.stringify(loose)).toBe(422);
      expect(res.json().errors.amount, JSON.stringify(loose)).toEqual([LOOSE_AMOUNT]);
    }
    expect((await check(-7)).json().errors.amount).toEqual(['The amount must be above zero.']);
    for (const fine of [10, 10.5, '10', '10.50', '0010.5']) expect((await check(fine)).statusCode, JSON.stringify(fine)).toBe(200);
  });

  it(`hole 13: at most ${PENDING_PAYMENTS_MAX} deposits wait in processing per user; 10 checkouts at once start exactly 5`, async () => {
    const { client } = await user();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => client.post('/api/deposit/checkout', { amount: 10, currency: 'EUR', payment_method: 'sandbox-card' })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array(PENDING_PAYMENTS_MAX).fill(200), ...Array(10 - PENDING_PAYMENTS_MAX).fill(409)]);
    const refused = results.find((r) => r.statusCode === 409)!;
    expect(refused.json().message).toBe(
      'You have 5 payments still waiting to be completed. Complete or cancel one of them (an unfinished payment expires after 30 minutes), then try again.',
    );
    const history = (await client.get('/api/deposit/history')).json().payload as { status: string }[];
    expect(history.filter((d) => d.status === 'processing')).toHaveLength(PENDING_PAYMENTS_MAX);
  });

  it('hole 13: starting payments is rate-limited per user (checkout and the card widget), 429 with Retry-After', async () => {
    const u = await user();
    const start = () =>
      u.client.request('POST', '/api/deposit/checkout', {
        body: { amount: 10, currency: 'EUR', payment_method: 'sandbox-widget' },
        headers: { 'idempotency-key': 'hole-13-one-deposit' },
      });
    const first = await start();
    expect(first.statusCode).toBe(200);
    for (let i = 1; i < PAYMENT_STARTS.limit; i++) expect((await start()).statusCode).toBe(200);
    const limited = await start();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('Too many payments started. Please try again in 10 minutes.');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The card widget of a chat unlock counts against the same limit.
    await expect(startWidgetCheckout(t.app.db, t.app.config, { depositId: first.json().payload.order_id, email: u.person.email })).rejects.toMatchObject({
      message: 'Too many payments started. Please try again in 10 minutes.',
    });
  });
});
