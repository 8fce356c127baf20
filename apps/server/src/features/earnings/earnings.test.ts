import { eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { availableMinor, balanceMinor, fund, pendingMinor, seededProducts, sellPrompt } from '../../../test/commerce';
import { payoutContact } from '../../../test/payouts';
import { useTestApp } from '../../../test/test-app';
import { awayFromStepEdge } from '../../../test/totp';
import { ledgerAccounts, payouts, sessions } from '../../db/schema';
import { checkLedger, earningsPendingCode, InsufficientFunds, postSale, releaseDueEarnings } from '../ledger';

const t = useTestApp({ seed: true });

const DAY = 86_400_000;
const GOOD_CARD = '4242424242424242';
const FAILING_CARD = '4000000000000002';
const contact = payoutContact;
const cardWithdrawal = (amount: number | string, card = GOOD_CARD) => ({
  ...contact,
  method: 'card',
  amount,
  card_number: card,
  expire_month: 12,
  expire_year: new Date().getUTCFullYear() + 2,
  terms: true,
  card_holder_name: 'Ines Duarte',
});

/** A sale of `priceMinor` to a new funded buyer, of which `creatorId` earns the price less 20 %. */
async function sell(creatorId: number, priceMinor: number, opts: { clearingDays?: number } = {}) {
  const buyer = await registerPerson(t.app);
  // A real purchase (issue 30: a sale is of sold lines, each with its split and its earnings state).
  await sellPrompt(t.app, buyer, creatorId, priceMinor);
  // Its clearing period over at once: the line is released.
  if (opts.clearingDays === 0) await releaseDueEarnings(t.app.db, { clearingDays: 0 });
  return buyer;
}

/** A creator whose sales have cleared: `earnedMinor` available. */
async function creatorWithAvailable(earnedMinor: number) {
  const creator = await registerSeller(t.app);
  await sell(creator.id, earnedMinor, { clearingDays: 0 });
  return creator;
}

const earnings = async (client: Awaited<ReturnType<typeof registerPerson>>['client']) => (await client.get('/api/earnings')).json().payload;

describe('earnings with a clearing period', () => {
  it('a sale credits pending earnings; the release job makes them available after 7 days, once per sale line', async () => {
    const creator = await registerSeller(t.app);
    const soldAt = Date.now();
    await sell(creator.id, 5000);
    await sell(creator.id, 1000);
    expect(await balanceMinor(t.app, creator.id)).toBe(0);

    const before = await earnings(creator.client);
    expect(before.pending).toMatchObject({ amount_minor: 4800, currency: 'EUR', amount: 48 });
    expect(before.available.amount_minor).toBe(0);
    expect(before.withdrawn.amount_minor).toBe(0);
    expect(before.lifetime.amount_minor).toBe(4800);
    expect(before.next_release_at * 1000).toBeGreaterThanOrEqual(soldAt + 7 * DAY - 2000);
    expect(before.next_release_at * 1000).toBeLessThanOrEqual(Date.now() + 7 * DAY + 2000);

    // Six days on: nothing is due yet.
    await releaseDueEarnings(t.app.db, { clearingDays: 7, now: new Date(Date.now() + 6 * DAY) });
    expect(await pendingMinor(t.app, creator.id)).toBe(4800);

    // Eight days on: both lines are released; a second run releases nothing more.
    await releaseDueEarnings(t.app.db, { clearingDays: 7, now: new Date(Date.now() + 8 * DAY) });
    await releaseDueEarnings(t.app.db, { clearingDays: 7, now: new Date(Date.now() + 9 * DAY) });
    const after = await earnings(creator.client);
    expect(after.pending.amount_minor).toBe(0);
    expect(after.available.amount_minor).toBe(4800);
    expect(after.lifetime.amount_minor).toBe(4800);
    expect(after.next_release_at).toBeNull();

    // The statement names the sale on pending and the release on both accounts.
    const lines = (await creator.client.get('/api/balance/statement')).json().payload as { kind: string; account: string; amount_minor: number }[];
    expect(lines.filter((l) => l.kind === 'sale').map((l) => [l.account, l.amount_minor])).toEqual([
      ['earnings_pending', 800],
      ['earnings_pending', 4000],
    ]);
    expect(lines.filter((l) => l.kind === 'earnings_release').map((l) => l.amount_minor)).toEqual(expect.arrayContaining([800, -800, 4000, -4000]));
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it('staff set the clearing period to 0: new sales are available at once, and the job releases what waited', async () => {
    const admin = await registerStaff(t.app);
    const creator = await registerSeller(t.app);
    await sell(creator.id, 1000);
    expect((await admin.client.request('PATCH', '/api/admin/settings', { body: { earnings_clearing_days: -1 } })).statusCode).toBe(422);
    const res = await admin.client.request('PATCH', '/api/admin/settings', { body: { earnings_clearing_days: 0 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.earnings_clearing_days).toBe(0);
    try {
      // What waited is released by the job's next run.
      await releaseDueEarnings(t.app.db, { clearingDays: 0 });
      expect(await pendingMinor(t.app, creator.id)).toBe(0);
      expect(await availableMinor(t.app, creator.id)).toBe(800);
      // A purchase in the shop with the setting at 0: the author's share is available at once.
      const [image] = await seededProducts(t.app, 'image');
      const buyer = await registerPerson(t.app);
      await fund(t.app, buyer.id, Number(image!.priceMinor));
      const authorBefore = await availableMinor(t.app, image!.authorId);
      const pendingBefore = await pendingMinor(t.app, image!.authorId);
      expect((await buyer.client.post('/api/purchase/buy', { item_id: image!.id })).statusCode).toBe(200);
      const share = Number(image!.priceMinor) - Math.round(Number(image!.priceMinor) * 0.2);
      expect(await availableMinor(t.app, image!.authorId)).toBe(authorBefore + share);
      expect(await pendingMinor(t.app, image!.authorId)).toBe(pendingBefore);
    } finally {
      await admin.client.request('PATCH', '/api/admin/settings', { body: { earnings_clearing_days: 7 } });
    }
  });

  it('available earnings are spent after the balance; short of both, nothing moves', async () => {
    const creator = await creatorWithAvailable(1000); // 800 available
    await fund(t.app, creator.id, 300);
    const seller = await registerPerson(t.app);
    await sellPrompt(t.app, creator, seller.id, 700, { funded: true });
    expect(await balanceMinor(t.app, creator.id)).toBe(0);
    expect(await availableMinor(t.app, creator.id)).toBe(400);
    const short = postSale(t.app.db, {
      buyerId: creator.id,
      shares: [{ sellerId: seller.id, amountMinor: 500, platformOwned: false }],
      commissionPercent: 20,
      reason: 'purchase',
    });
    await expect(short).rejects.toBeInstanceOf(InsufficientFunds);
    await expect(short).rejects.toMatchObject({ shortfallMinor: 100 });
    expect(await availableMinor(t.app, creator.id)).toBe(400);
    expect((await earnings(creator.client)).available.amount_minor).toBe(400);
  });

  it('the reconciliation turns red when a pending earnings balance is corrupted', async () => {
    const admin = await registerStaff(t.app);
    const creator = await registerSeller(t.app);
    await sell(creator.id, 1000);
    expect((await admin.client.get('/api/admin/ledger/reconciliation')).json().payload.ok).toBe(true);
    const [account] = await t.app.db
      .select()
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.code, earningsPendingCode(creator.id)));
    await t.app.db.execute(sql`update ledger_accounts set balance_minor = balance_minor + 1 where id = ${account!.id}`);
    const red = (await admin.client.get('/api/admin/ledger/reconciliation')).json().payload;
    expect(red.ok).toBe(false);
    expect(red.drifted_accounts).toEqual([account!.id]);
    expect(red.first_mismatch).toEqual({ kind: 'account', id: account!.id, actual_minor: 801, expected_minor: 800 });
    await t.app.db.execute(sql`update ledger_accounts set balance_minor = balance_minor - 1 where id = ${account!.id}`);
    expect((await admin.client.get('/api/admin/ledger/reconciliation')).json().payload.ok).toBe(true);
  });

  it('a guest gets 401', async () => {
    const { TestClient } = await import('../../../test/test-app');
    const guest = new TestClient(t.app);
    expect((await guest.get('/api/earnings')).statusCode).toBe(401);
    expect((await guest.get('/api/earnings/withdrawals')).statusCode).toBe(401);
  });
});

describe('withdrawals', () => {
  it('issue 21: with two-factor sign-in on, a withdrawal needs a fresh second factor: refused with step_up and nothing moved, then paid after the step-up', async () => {
    const creator = await creatorWithAvailable(5000); // 4000 available
    const setup = (await creator.client.post('/api/user/2fa/setup')).json().payload as { secret: string };
    const code = (steps: number) =>
      new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(setup.secret) }).generate({ timestamp: Date.now() + steps * 30_000 });
    await awayFromStepEdge();
    expect((await creator.client.post('/api/user/2fa/enable', { code: code(-1) })).statusCode).toBe(200);
    // The session's last proof is older than the step-up window.
    await t.app.db
      .update(sessions)
      .set({ secondFactorAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(sessions.userId, creator.id));
    const refused = await creator.client.post('/api/earnings/withdraw', cardWithdrawal('25.00'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors.step_up).toBeDefined();
    expect(await availableMinor(t.app, creator.id)).toBe(4000);
    expect((await creator.client.get('/api/earnings/withdrawals')).json().payload).toEqual([]);

    expect((await creator.client.post('/api/user/step-up', { code: code(0) })).statusCode).toBe(200);
    const res = await creator.client.post('/api/earnings/withdraw', cardWithdrawal('25.00'));
    expect(res.statusCode).toBe(200);
    expect(await availableMinor(t.app, creator.id)).toBe(1500);
  });

  it('withdraws to a sandbox card: processing, then paid by the job; the money left through the payout clearing', async () => {
    const creator = await creatorWithAvailable(5000); // 4000 available
    const res = await creator.client.post('/api/earnings/withdraw', cardWithdrawal('25.00'));
    expect(res.statusCode).toBe(200);
    const { withdrawal } = res.json().payload;
    expect(res.json().status).toBe('OK');
    expect(withdrawal).toMatchObject({ status: 'processing', method: 'card', amount: { amount_minor: 2500 }, destination: 'visa •••• 4242' });
    expect(await availableMinor(t.app, creator.id)).toBe(1500);
    // Only the brand and last four are kept.
    const [row] = await t.app.db.select().from(payouts).where(eq(payouts.id, withdrawal.id));
    expect(JSON.stringify(row)).not.toContain(GOOD_CARD);

    await t.app.jobs.runDue({ at: new Date(Date.now() + DAY) });
    const list = (await creator.client.get('/api/earnings/withdrawals')).json().payload;
    expect(list[0]).toMatchObject({ id: withdrawal.id, status: 'paid', failure_reason: null });
    const e = await earnings(creator.client);
    expect(e.withdrawn.amount_minor).toBe(2500);
    expect(e.available.amount_minor).toBe(1500);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it('a failed payout (card ending 0002) returns the money to available, with the reason', async () => {
    const creator = await creatorWithAvailable(5000);
    const res = await creator.client.post('/api/earnings/withdraw', cardWithdrawal(40, FAILING_CARD));
    expect(res.statusCode).toBe(200);
    expect(await availableMinor(t.app, creator.id)).toBe(0);
    await t.app.jobs.runDue({ at: new Date(Date.now() + DAY) });
    const [w] = (await creator.client.get('/api/earnings/withdrawals')).json().payload;
    expect(w.status).toBe('failed');
    expect(w.failure_reason).toBeTruthy();
    expect(await availableMinor(t.app, creator.id)).toBe(4000);
    expect((await earnings(creator.client)).withdrawn.amount_minor).toBe(0);
    // With the failed one ended, the creator may try again.
    expect((await creator.client.post('/api/earnings/withdraw', cardWithdrawal(40))).statusCode).toBe(200);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it('refuses below the minimum, above available, a second one in flight, and bad details, with messages', async () => {
    const creator = await creatorWithAvailable(2000); // 1600 available
    const below = await creator.client.post('/api/earnings/withdraw', cardWithdrawal('9.99'));
    expect(below.statusCode).toBe(422);
    expect(below.json().errors.amount[0]).toContain('€10.00');
    const above = await creator.client.post('/api/earnings/withdraw', cardWithdrawal('16.01'));
    expect(above.statusCode).toBe(422);
    expect(above.json().errors.amount[0]).toContain('€16.00');
    const huge = await creator.client.post('/api/earnings/withdraw', cardWithdrawal('99999999999999999999.99'), { 'idempotency-key': 'huge-1' });
    expect(huge.statusCode).toBe(422);
    expect(huge.json().errors.amount).toEqual(['This amount is too large.']);
    const large = await creator.client.post('/api/earnings/withdraw', cardWithdrawal('2000000'), { 'idempotency-key': 'large-1' });
    expect(large.statusCode).toBe(422);
    expect(large.json().errors.amount).toEqual(['A withdrawal may be at most €1000000.00.']);
    const badCard = await creator.client.post('/api/earnings/withdraw', cardWithdrawal(12, '4242424242424241'));
    expect(badCard.statusCode).toBe(422);
    expect(badCard.json().errors.card_number).toEqual(['Please enter a valid card number']);
    const badIban = await creator.client.post('/api/earnings/withdraw', {
      ...contact,
      method: 'sepa',
      amount: 12,
      account_number: 'DE89370400440532013001',
      recipient_full_name: 'Ines Duarte',
    });
    expect(badIban.statusCode).toBe(422);
    expect(badIban.json().errors.account_number).toEqual(['Please enter a valid IBAN']);
    expect((await creator.client.post('/api/earnings/withdraw', { ...contact, method: 'cash', amount: 12 })).statusCode).toBe(422);

    // A purchased balance is not withdrawable.
    await fund(t.app, creator.id, 10_000);
    expect((await creator.client.post('/api/earnings/withdraw', cardWithdrawal(20))).statusCode).toBe(422);

    // SEPA: the IBAN is kept encrypted, shown masked; the payout waits for staff.
    const first = await creator.client.post('/api/earnings/withdraw', {
      ...contact,
      method: 'sepa',
      amount: 10,
      account_number: 'DE89 3704 0044 0532 0130 00',
      recipient_full_name: 'Ines Duarte',
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().payload.withdrawal.destination).toBe('DE89 •••• 3000');
    const [row] = await t.app.db.select().from(payouts).where(eq(payouts.id, first.json().payload.withdrawal.id));
    expect(JSON.stringify(row)).not.toContain('DE89370400440532013000');
    const second = await creator.client.post('/api/earnings/withdraw', cardWithdrawal(10));
    expect(second.statusCode).toBe(409);
    expect(await availableMinor(t.app, creator.id)).toBe(600);
  });

  it('an Idempotency-Key replays the first answer and moves the money once', async () => {
    const creator = await creatorWithAvailable(5000);
    const headers = { 'idempotency-key': `withdraw-${creator.id}` };
    const a = await creator.client.post('/api/earnings/withdraw', cardWithdrawal(15), headers);
    const b = await creator.client.post('/api/earnings/withdraw', cardWithdrawal(15), headers);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(b.json().payload.withdrawal.id).toBe(a.json().payload.withdrawal.id);
    expect(await availableMinor(t.app, creator.id)).toBe(2500);
  });

  it("a second user sees none of the first's withdrawals", async () => {
    const creator = await creatorWithAvailable(2000);
    expect((await creator.client.post('/api/earnings/withdraw', cardWithdrawal(10))).statusCode).toBe(200);
    const other = await registerPerson(t.app);
    expect((await other.client.get('/api/earnings/withdrawals')).json().payload).toEqual([]);
    const e = await earnings(other.client);
    expect([e.pending.amount_minor, e.available.amount_minor, e.withdrawn.amount_minor]).toEqual([0, 0, 0]);
  });

  it('staff see withdrawals in the payouts queue beside offer payouts', async () => {
    const admin = await registerStaff(t.app);
    const creator = await creatorWithAvailable(2000);
    const res = await creator.client.post('/api/earnings/withdraw', {
      ...contact,
      method: 'sepa',
      amount: 12,
      account_number: 'DE89370400440532013000',
      recipient_full_name: 'Ines Duarte',
    });
    const id = res.json().payload.withdrawal.id;
    const queue = (await admin.client.get('/api/admin/payouts?status=processing')).json().payload as { id: number; kind: string; awaits_staff: boolean }[];
    expect(queue.find((p) => p.id === id)).toMatchObject({ kind: 'withdrawal', awaits_staff: true });
    const xml = await admin.client.get('/api/admin/payouts/sepa-export?debtor_iban=DE89370400440532013000');
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain(`<EndToEndId>PAYOUT-${id}</EndToEndId>`);
    expect(xml.body).toContain('withdrawal');
    const failed = await admin.client.post(`/api/admin/payouts/${id}/complete`, { outcome: 'failed', reason: 'The bank returned the transfer.' });
    expect(failed.statusCode).toBe(200);
    const [w] = (await creator.client.get('/api/earnings/withdrawals')).json().payload;
    expect(w).toMatchObject({ status: 'failed', failure_reason: 'The bank returned the transfer.' });
    expect(await availableMinor(t.app, creator.id)).toBe(1600);
  });
});
