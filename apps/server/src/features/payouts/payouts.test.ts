import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { accountMinor } from '../../../test/commerce';
import { approvedOffer, cardPayoutBody, offerStatus, payoutContact } from '../../../test/payouts';
import { createTestApp, type TestApp, type TestClient, useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { jobs, offerEvents, offers, payouts } from '../../db/schema';
import { enqueue } from '../../lib/jobs';
import { setSetting } from '../../lib/settings';
import { checkLedger, clearingAccountCode } from '../ledger';
import { cardBrand, type PayoutOrder, type PayoutProvider } from './payout-provider';
import { OFFER_ACQUISITIONS, PAYOUT_SETTLE, payoutJobKey } from './payouts';

const GOOD_CARD = '4242424242424242';
const IBAN = 'DE89370400440532013000';

/**
 * A provider that takes 200 ms to pay, as a real one does over the network. It records every payout
 * call, and what another connection saw of the offer at that moment (committed or not).
 */
function slowProvider(opts: { failFirst?: boolean } = {}) {
  const sent: { order: PayoutOrder; offerStatusSeen: string | undefined }[] = [];
  let registered = 0;
  let db: TestApp['app']['db'] | null = null;
  let failNext = opts.failFirst ?? false;
  const provider: PayoutProvider = {
    name: 'stripe',
    sendDelayMs: 0,
    handles: () => 'provider',
    async registerDestination(input) {
      registered += 1;
      if (input.method === 'card') return { token: `tok_test_${registered}`, brand: cardBrand(input.card.number), last4: input.card.number.slice(-4) };
      return { token: `btok_test_${registered}`, last4: input.iban.slice(-4) };
    },
    async sendPayout(order) {
      const [payout] = await db!.select({ offerId: payouts.offerId }).from(payouts).where(eq(payouts.id, order.payoutId));
      const [offer] = await db!.select({ status: offers.status }).from(offers).where(eq(offers.id, payout!.offerId!));
      sent.push({ order, offerStatusSeen: offer?.status });
      await new Promise((r) => setTimeout(r, 200));
      if (failNext) {
        failNext = false;
        throw Object.assign(new Error('connection reset by the provider'), { code: 'ECONNRESET' });
      }
      return { state: 'paid', providerRef: `tr_${order.idempotencyKey}`, account: 'acct_test_creator' };
    },
    async lookup() {
      return { state: 'unknown' };
    },
  };
  return {
    provider,
    sent,
    attach(app: TestApp['app']) {
      db = app.db;
    },
  };
}

const contact = payoutContact;
const cardPayload = cardPayoutBody;
const sepaPayload = (id: number) => ({ ...contact, id, paymentType: 'sepa', account_number: IBAN, recipient_full_name: 'Ines Duarte' });

describe('hole 2: the payout provider is called after the commit, by a job keyed by the payout id', () => {
  const stub = slowProvider();
  const t = useTestApp({ build: { payoutProvider: stub.provider }, registration: true });
  beforeAll(async () => {
    stub.attach(t.app);
  });

  it('hole 2: 20 parallel payout requests with a 200 ms provider give exactly 1 provider call, 1 payout, paid once, the ledger exact', async () => {
    const creator = await registerPerson(t.app);
    const offerId = await approvedOffer(t.app, creator.id, 4000);
    const acquisitionsBefore = await accountMinor(t.app, OFFER_ACQUISITIONS);
    const clearingBefore = await accountMinor(t.app, clearingAccountCode('payout-stripe'));

    const answers = await Promise.all(Array.from({ length: 20 }, () => creator.client.post('/api/offer/request-payout/card', cardPayload(offerId))));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect(answers.find((a) => a.statusCode === 200)!.json().payload.status).toBe('payout_processing');
    // The request answers without the provider: no payout call yet, the job holds it.
    expect(stub.sent).toHaveLength(0);

    const rows = await t.app.db.select().from(payouts).where(eq(payouts.offerId, offerId));
    expect(rows).toHaveLength(1);
    const payout = rows[0]!;
    // Only the provider's token, brand and last four: never the card number.
    expect(payout).toMatchObject({ status: 'processing', cardBrand: 'visa', cardLast4: '4242', provider: 'stripe' });
    expect(payout.destinationToken).toMatch(/^tok_test_\d+$/);
    const queued = await t.app.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.name, PAYOUT_SETTLE), eq(jobs.singletonKey, payoutJobKey(payout.id))));
    expect(queued).toHaveLength(1);
    const dump = await t.app.db.execute(sql`select (select json_agg(p) from payouts p)::text || (select json_agg(j) from jobs j)::text as d`);
    expect(String(rowsOf<{ d: string }>(dump)[0]!.d)).not.toContain(GOOD_CARD);

    // Two job workers at once, as two app servers would: the job is claimed once.
    await Promise.all([t.app.jobs.runDue(), t.app.jobs.runDue()]);
    expect(stub.sent).toHaveLength(1);
    expect(stub.sent[0]!.order).toMatchObject({
      payoutId: payout.id,
      idempotencyKey: `payout-${payout.id}`,
      amountMinor: 4000,
      token: payout.destinationToken,
    });
    // The provider saw the committed move: it was called after the transaction, not inside it.
    expect(stub.sent[0]!.offerStatusSeen).toBe('payout_processing');

    expect(await offerStatus(t.app, offerId)).toBe('paid');
    const paidMoves = await t.app.db
      .select()
      .from(offerEvents)
      .where(and(eq(offerEvents.offerId, offerId), eq(offerEvents.toStatus, 'paid')));
    expect(paidMoves).toHaveLength(1);
    const [settled] = await t.app.db.select().from(payouts).where(eq(payouts.id, payout.id));
    expect(settled).toMatchObject({ status: 'paid', providerRef: `tr_payout-${payout.id}`, providerAccount: 'acct_test_creator' });
    expect(await accountMinor(t.app, OFFER_ACQUISITIONS)).toBe(acquisitionsBefore - 4000);
    expect(await accountMinor(t.app, clearingAccountCode('payout-stripe'))).toBe(clearingBefore + 4000);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });

    // The job delivered twice (at least once is the queue's promise) pays nothing more.
    await enqueue(t.app.db, PAYOUT_SETTLE, { payoutId: payout.id });
    await t.app.jobs.runDue();
    expect(stub.sent).toHaveLength(1);
    expect(await accountMinor(t.app, OFFER_ACQUISITIONS)).toBe(acquisitionsBefore - 4000);
  });
});

describe('hole 2: a provider that does not answer', () => {
  const failing = slowProvider({ failFirst: true });
  let other: TestApp;
  beforeAll(async () => {
    other = await createTestApp({ build: { payoutProvider: failing.provider } });
    failing.attach(other.app);
    await setSetting(other.app.db, 'is_reg_enabled', true);
  });
  afterAll(() => other.close());

  it('hole 2: is asked again with the same idempotency key; staff cannot end the payout meanwhile', async () => {
    const creator = await registerPerson(other.app);
    const admin = await registerStaff(other.app);
    const offerId = await approvedOffer(other.app, creator.id, 2500);
    expect((await creator.client.post('/api/offer/request-payout/card', cardPayload(offerId))).statusCode).toBe(200);
    const [payout] = await other.app.db.select().from(payouts).where(eq(payouts.offerId, offerId));

    // While its job waits, the payout is the provider's: marking it by hand could pay it twice.
    const listed = (await admin.client.get('/api/admin/payouts?status=processing')).json().payload.find((p: { id: number }) => p.id === payout!.id);
    expect(listed).toMatchObject({ provider: 'stripe', awaits_staff: false });
    const byHand = await admin.client.post(`/api/admin/payouts/${payout!.id}/complete`, { outcome: 'failed', reason: 'impatient' });
    expect(byHand.statusCode).toBe(409);
    expect(byHand.json().message).toBe('This payout is being sent by stripe; it ends when the provider answers.');

    await other.app.jobs.runDue();
    expect(failing.sent).toHaveLength(1);
    expect(await offerStatus(other.app, offerId)).toBe('payout_processing');
    await other.app.jobs.runDue({ at: new Date(Date.now() + 60_000) });
    expect(failing.sent.map((s) => s.order.idempotencyKey)).toEqual([`payout-${payout!.id}`, `payout-${payout!.id}`]);
    expect(await offerStatus(other.app, offerId)).toBe('paid');
    expect(await checkLedger(other.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});

describe('hole 2: PAYOUT_PROVIDER=manual (the production default) waits for staff', () => {
  const t = useTestApp({ env: { PAYOUT_PROVIDER: 'manual' }, registration: true });
  let admin: TestClient;
  beforeAll(async () => {
    admin = (await registerStaff(t.app)).client;
  });

  it('hole 2: no provider call; a bank transfer waits in the queue until staff mark it paid with a reference, or failed with a reason', async () => {
    expect((await t.app.inject({ url: '/api/settings' })).json().payload.payout_methods).toEqual(['sepa']);
    const creator = await registerPerson(t.app);
    const offerId = await approvedOffer(t.app, creator.id, 3000);

    // A card cannot be paid by hand (its number is never kept): refused, and nothing changes.
    const card = await creator.client.post('/api/offer/request-payout/card', cardPayload(offerId));
    expect(card.statusCode).toBe(422);
    expect(card.json().errors.paymentType).toEqual(['Card payouts are not available: please choose a bank transfer.']);
    expect(await offerStatus(t.app, offerId)).toBe('approved');

    expect((await creator.client.post('/api/offer/request-payout/sepa', sepaPayload(offerId))).statusCode).toBe(200);
    const [payout] = await t.app.db.select().from(payouts).where(eq(payouts.offerId, offerId));
    expect(payout).toMatchObject({ provider: 'manual', status: 'processing', destinationToken: null, ibanMasked: 'DE89 •••• 3000' });
    expect(payout!.ibanEncrypted).not.toContain(IBAN);
    expect(await t.app.db.select().from(jobs).where(eq(jobs.name, PAYOUT_SETTLE))).toHaveLength(0);
    await t.app.jobs.runDue({ at: new Date(Date.now() + 86_400_000) });
    expect(await offerStatus(t.app, offerId)).toBe('payout_processing');

    const queued = (await admin.get('/api/admin/payouts?status=processing')).json().payload;
    expect(queued).toEqual([expect.objectContaining({ id: payout!.id, provider: 'manual', awaits_staff: true, transfer_reference: null })]);
    const xml = await admin.get('/api/admin/payouts/sepa-export?debtor_iban=FR1420041010050500013M02606');
    expect(xml.body).toContain(`<EndToEndId>PAYOUT-${payout!.id}</EndToEndId>`);
    expect(xml.body).toContain(`<IBAN>${IBAN}</IBAN>`);

    expect((await admin.post(`/api/admin/payouts/${payout!.id}/complete`, { outcome: 'paid', reference: '  ' })).statusCode).toBe(422);
    const paid = await admin.post(`/api/admin/payouts/${payout!.id}/complete`, { outcome: 'paid', reference: 'E2E-PAYOUT-1 / bank 2026-03-01' });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().payload).toMatchObject({ status: 'paid', transfer_reference: 'E2E-PAYOUT-1 / bank 2026-03-01', awaits_staff: false });
    expect(await offerStatus(t.app, offerId)).toBe('paid');
    expect(await accountMinor(t.app, clearingAccountCode('payout-manual'))).toBe(3000);
    const audit = (await admin.get(`/api/admin/audit?subject=payout:${payout!.id}`)).json().payload;
    expect(audit[0]).toMatchObject({ action: 'payout.complete', after: { status: 'paid', transfer_reference: 'E2E-PAYOUT-1 / bank 2026-03-01' } });

    // A transfer that bounced: failed with the reason, and the offer is the creator's to pay out again.
    const second = await approvedOffer(t.app, creator.id, 1200);
    expect((await creator.client.post('/api/offer/request-payout/sepa', sepaPayload(second))).statusCode).toBe(200);
    const [bounced] = await t.app.db.select().from(payouts).where(eq(payouts.offerId, second));
    const failed = await admin.post(`/api/admin/payouts/${bounced!.id}/complete`, {
      outcome: 'failed',
      reason: 'The bank returned the transfer: account closed.',
    });
    expect(failed.json().payload).toMatchObject({ status: 'failed', failure_reason: 'The bank returned the transfer: account closed.' });
    const history = (await creator.client.get('/api/offer/history')).json().payload.find((o: { id: number }) => o.id === second);
    expect(history).toMatchObject({ status: 'approved', status_note: 'The bank returned the transfer: account closed.' });
    expect(await accountMinor(t.app, clearingAccountCode('payout-manual'))).toBe(3000);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
