import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { balanceMinor } from '../../../test/commerce';
import { type StripeEvent, sendSandboxEvent, sendStripeEvent, stripeTestEnv } from '../../../test/payments';
import { createTestApp, type TestApp, useTestApp } from '../../../test/test-app';
import { deposits } from '../../db/schema';
import { setSetting } from '../../lib/settings';
import { checkLedger } from '../ledger';
import type { SandboxEvent } from './sandbox/sandbox-provider';

/**
 * Issue 30 (webhooks): a payment event's amount and currency must be the deposit's. A mismatch (or an
 * event that does not say what was paid) credits nothing; the deposit is flagged for staff on the money
 * screen, and the log names ids only.
 */
type AdminFlagged = { id: number; reason: string; currency_amount_minor: number; currency: string; status: string; user: { id: number } };

describe('sandbox webhooks: the amount and currency must match the deposit', () => {
  const lines: string[] = [];
  const t = useTestApp({ logStream: { write: (line) => lines.push(line) }, registration: true });

  const send = (event: SandboxEvent) => sendSandboxEvent(t.app, event);

  it('a wrong amount, a wrong currency or no amount credits nothing and flags the deposit for staff; the right one credits once', async () => {
    const buyer = await registerPerson(t.app);
    const staff = await registerStaff(t.app);
    const started = await buyer.client.post('/api/deposit/checkout', { amount: 25, currency: 'EUR', payment_method: 'sandbox-card' });
    expect(started.statusCode).toBe(200);
    const depositId = started.json().payload.order_id as number;
    const paid = (id: string, data: Partial<SandboxEvent['data']>) => send({ id, type: 'payment.succeeded', data: { deposit_id: depositId, ...data } });

    expect(await paid('evt_amount_low', { amount_minor: 100, currency: 'EUR' })).toBe('refused');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    const [flagged] = await t.app.db.select().from(deposits).where(eq(deposits.id, depositId));
    expect(flagged).toMatchObject({ status: 'processing', ledgerTransactionId: null });
    expect(flagged!.flaggedReason).toBe('The provider reported 100 EUR paid; the deposit expects 2500 EUR (minor units). Nothing was credited.');

    const shown = (await staff.client.get('/api/admin/deposits/flagged')).json().payload as AdminFlagged[];
    expect(shown.find((d) => d.id === depositId)).toMatchObject({
      user: { id: buyer.id },
      currency_amount_minor: 2500,
      currency: 'EUR',
      status: 'processing',
      reason: 'The provider reported 100 EUR paid; the deposit expects 2500 EUR (minor units). Nothing was credited.',
    });
    expect((await buyer.client.get('/api/admin/deposits/flagged')).statusCode).toBe(403);

    expect(await paid('evt_currency', { amount_minor: 2500, currency: 'USD' })).toBe('refused');
    expect(await paid('evt_silent', {})).toBe('refused');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    const [silent] = await t.app.db.select().from(deposits).where(eq(deposits.id, depositId));
    expect(silent!.flaggedReason).toBe('The provider did not say what was paid; the deposit expects 2500 EUR (minor units). Nothing was credited.');

    expect(await paid('evt_right', { amount_minor: 2500, currency: 'eur' })).toBe('applied');
    expect(await paid('evt_right', { amount_minor: 2500, currency: 'EUR' })).toBe('duplicate');
    expect(await balanceMinor(t.app, buyer.id)).toBe(2500);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });

    // The log says a payment event was refused, with ids only: no e-mail, no card.
    const refusal = lines.filter((l) => l.includes('payment event refused'));
    expect(refusal).toHaveLength(3);
    expect(refusal.join('\n')).toContain(`"depositId":${depositId}`);
    expect(lines.join('\n')).not.toContain(buyer.email);
  });
});

describe('Stripe webhooks: the amount and currency must match the deposit', () => {
  const secret = 'whsec_test_amounts';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: stripeTestEnv(secret),
    });
    await setSetting(t.app.db, 'is_reg_enabled', true);
  });
  afterAll(() => t.close());

  const send = (event: StripeEvent) => sendStripeEvent(t.app, secret, event);

  it('a Checkout Session or PaymentIntent paying another amount or currency credits nothing; the matching one credits', async () => {
    const buyer = await registerPerson(t.app);
    const staff = await registerStaff(t.app);
    const [row] = await t.app.db
      .insert(deposits)
      .values({ userId: buyer.id, amountMinor: 5000, currency: 'EUR', currencyAmountMinor: 5000, provider: 'stripe', paymentMethod: 'stripe-checkout' })
      .returning({ id: deposits.id });
    const session = (amount: number, currency: string) => ({
      object: 'checkout.session',
      payment_status: 'paid',
      payment_intent: `pi_${row!.id}`,
      amount_total: amount,
      currency,
      metadata: { deposit_id: String(row!.id) },
    });
    expect(await send({ id: 'evt_s_low', type: 'checkout.session.completed', data: { object: session(4000, 'eur') } })).toBe('refused');
    expect(await send({ id: 'evt_s_usd', type: 'checkout.session.completed', data: { object: session(5000, 'usd') } })).toBe('refused');
    const intent = {
      object: 'payment_intent',
      id: `pi_${row!.id}`,
      amount: 5000,
      amount_received: 1,
      currency: 'eur',
      metadata: { deposit_id: String(row!.id) },
    };
    expect(await send({ id: 'evt_pi_1', type: 'payment_intent.succeeded', data: { object: intent } })).toBe('refused');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    const shown = (await staff.client.get('/api/admin/deposits/flagged')).json().payload as AdminFlagged[];
    expect(shown.find((d) => d.id === row!.id)?.reason).toBe(
      'The provider reported 1 EUR paid; the deposit expects 5000 EUR (minor units). Nothing was credited.',
    );

    expect(await send({ id: 'evt_s_ok', type: 'checkout.session.completed', data: { object: session(5000, 'eur') } })).toBe('applied');
    expect(await balanceMinor(t.app, buyer.id)).toBe(5000);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
