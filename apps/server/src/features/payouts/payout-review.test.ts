import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { accountMinor, sellPrompt } from '../../../test/commerce';
import { approvedOffer, cardPayoutBody, offerStatus, payoutContact } from '../../../test/payouts';
import { useTestApp } from '../../../test/test-app';
import { payouts } from '../../db/schema';
import { checkLedger, clearingAccountCode, releaseDueEarnings } from '../ledger';
import { cardBrand, createSandboxPayoutProvider, type PayoutLookup, type PayoutProvider } from './payout-provider';
import { PAYOUT_MESSAGES } from './payout-states';
import { OFFER_ACQUISITIONS } from './payouts';

/**
 * Issue 30 finding 5: a payout whose job gave up may have been executed by the provider. It moves to
 * needs_review with the provider's state unknown; payout.reconcile asks the provider by payout id; staff
 * may mark it failed only once the provider said it did not pay (409 with a sentence before).
 */
function unreachableProvider() {
  const asked: number[] = [];
  let answer: PayoutLookup = { state: 'unknown' };
  const provider: PayoutProvider = {
    name: 'stripe',
    sendDelayMs: 0,
    handles: () => 'provider',
    async registerDestination(input) {
      if (input.method === 'card') return { token: 'tok_test_review', brand: cardBrand(input.card.number), last4: input.card.number.slice(-4) };
      return { token: 'btok_test_review', last4: input.iban.slice(-4) };
    },
    async sendPayout() {
      // The request may have reached the provider: the answer never came back.
      throw Object.assign(new Error('read timeout from the provider'), { code: 'ETIMEDOUT' });
    },
    async lookup(payoutId) {
      asked.push(payoutId);
      return answer;
    },
  };
  return {
    provider,
    asked,
    answers(next: PayoutLookup) {
      answer = next;
    },
  };
}

const card = (id: number) => cardPayoutBody(id);

/** Far enough ahead that every retry of a job is due (the backoff is capped at an hour). */
const later = () => new Date(Date.now() + 30 * 86_400_000);

describe('issue 30 finding 5: a payout whose job gave up needs review', () => {
  const stub = unreachableProvider();
  const t = useTestApp({ build: { payoutProvider: stub.provider }, registration: true });

  async function givenUp(priceMinor: number) {
    const creator = await registerPerson(t.app);
    const offerId = await approvedOffer(t.app, creator.id, priceMinor);
    expect((await creator.client.post('/api/offer/request-payout/card', card(offerId))).statusCode).toBe(200);
    const [payout] = await t.app.db.select().from(payouts).where(eq(payouts.offerId, offerId));
    // Every attempt of payout.settle times out; then payout.reconcile asks, and the provider cannot say.
    await t.app.jobs.runDue({ at: later() });
    return { creator, offerId, payoutId: payout!.id };
  }

  it('staff cannot mark it failed while the provider has not said it did not pay; once it has, they can', async () => {
    const admin = await registerStaff(t.app);
    stub.answers({ state: 'unknown' });
    const { offerId, payoutId } = await givenUp(2700);
    expect(stub.asked).toContain(payoutId);

    const queue = (await admin.client.get('/api/admin/payouts?status=needs_review')).json().payload;
    expect(queue.find((p: { id: number }) => p.id === payoutId)).toMatchObject({ status: 'needs_review', provider_state: 'unknown', awaits_staff: true });
    expect(await offerStatus(t.app, offerId)).toBe('payout_processing');

    const early = await admin.client.post(`/api/admin/payouts/${payoutId}/complete`, { outcome: 'failed', reason: 'The job gave up.' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(PAYOUT_MESSAGES.providerNotAsked);
    expect(await offerStatus(t.app, offerId)).toBe('payout_processing');

    // Staff ask again; the provider now says it made no transfer for this payout.
    stub.answers({ state: 'not_paid' });
    const asked = await admin.client.post(`/api/admin/payouts/${payoutId}/reconcile`, {});
    expect(asked.statusCode).toBe(200);
    await t.app.jobs.runDue();
    const [row] = await t.app.db.select().from(payouts).where(eq(payouts.id, payoutId));
    expect(row).toMatchObject({ status: 'needs_review', providerState: 'not_paid' });

    const failed = await admin.client.post(`/api/admin/payouts/${payoutId}/complete`, { outcome: 'failed', reason: 'Stripe made no transfer.' });
    expect(failed.statusCode).toBe(200);
    expect(failed.json().payload).toMatchObject({ status: 'failed', failure_reason: 'Stripe made no transfer.' });
    expect(await offerStatus(t.app, offerId)).toBe('approved');
    const audit = (await admin.client.get(`/api/admin/audit?subject=payout:${payoutId}`)).json().payload;
    expect(audit[0]).toMatchObject({ action: 'payout.complete', before: { status: 'needs_review', provider_state: 'not_paid' }, after: { status: 'failed' } });
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it('a provider that says it paid ends the payout paid, once, and it cannot then be failed', async () => {
    const admin = await registerStaff(t.app);
    stub.answers({ state: 'paid', providerRef: 'tr_found' });
    const acquisitionsBefore = await accountMinor(t.app, OFFER_ACQUISITIONS);
    const clearingBefore = await accountMinor(t.app, clearingAccountCode('payout-stripe'));
    const { offerId, payoutId } = await givenUp(1900);
    const [row] = await t.app.db.select().from(payouts).where(eq(payouts.id, payoutId));
    expect(row).toMatchObject({ status: 'paid', providerRef: 'tr_found' });
    expect(await offerStatus(t.app, offerId)).toBe('paid');
    expect(await accountMinor(t.app, OFFER_ACQUISITIONS)).toBe(acquisitionsBefore - 1900);
    expect(await accountMinor(t.app, clearingAccountCode('payout-stripe'))).toBe(clearingBefore + 1900);
    const late = await admin.client.post(`/api/admin/payouts/${payoutId}/complete`, { outcome: 'failed', reason: 'too late' });
    expect(late.statusCode).toBe(409);
    expect((await admin.client.post(`/api/admin/payouts/${payoutId}/reconcile`, {})).statusCode).toBe(409);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
  it("a creator's withdrawal whose job gave up stays counted as withdrawn on the Earnings tab, not as available", async () => {
    stub.answers({ state: 'unknown' });
    const creator = await registerSeller(t.app);
    const buyer = await registerPerson(t.app);
    await sellPrompt(t.app, buyer, creator.id, 2500);
    await releaseDueEarnings(t.app.db, { clearingDays: 0 });
    const sepa = { ...payoutContact, method: 'sepa', account_number: 'DE89370400440532013000', recipient_full_name: 'Ines Duarte' };
    const asked = await creator.client.post('/api/earnings/withdraw', { ...sepa, amount: 20 });
    expect(asked.statusCode).toBe(200);
    await t.app.jobs.runDue({ at: later() });
    const [row] = await t.app.db.select().from(payouts).where(eq(payouts.id, asked.json().payload.withdrawal.id));
    expect(row!.status).toBe('needs_review');
    const tab = (await creator.client.get('/api/earnings')).json().payload;
    // 25.00 sold, 20 % commission: 20.00 earned, all of it on its way to the bank while the provider is asked.
    expect(tab).toMatchObject({ available: { amount_minor: 0 }, withdrawn: { amount_minor: 2000 } });
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});

describe('issue 30 finding 5: the sandbox answers a lookup by payout id', () => {
  it('paid for a payout it paid, not paid for one it never paid or declined', async () => {
    const sandbox = createSandboxPayoutProvider({ delaySeconds: 0 });
    const ok = await sandbox.registerDestination(
      { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2040, holder: 'I D' } },
      { userId: 1, email: 'a@example.com' },
    );
    const bad = await sandbox.registerDestination(
      { method: 'card', card: { number: '4000000000000002', expMonth: 12, expYear: 2040, holder: 'I D' } },
      { userId: 1, email: 'a@example.com' },
    );
    const order = { amountMinor: 100, currency: 'EUR', method: 'card' as const, account: null, holderName: 'I D', contact: {}, userId: 1 };
    await sandbox.sendPayout({ ...order, payoutId: 41, idempotencyKey: 'payout-41', token: ok.token! });
    await sandbox.sendPayout({ ...order, payoutId: 42, idempotencyKey: 'payout-42', token: bad.token! });
    expect(await sandbox.lookup(41)).toEqual({ state: 'paid', providerRef: 'sbx_po_41' });
    expect(await sandbox.lookup(42)).toEqual({ state: 'not_paid' });
    expect(await sandbox.lookup(43)).toEqual({ state: 'not_paid' });
  });
});
