import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { accountMinor, balanceMinor, pendingMinor, sellPrompt } from '../../../test/commerce';
import { paidStripeDeposit, type StripeEvent, sendSandboxEvent, sendStripeEvent, stripeDispute, stripeTestEnv } from '../../../test/payments';
import { TestClient, useTestApp } from '../../../test/test-app';
import { deposits, ledgerAccounts } from '../../db/schema';
import { clearingAccountCode, DISPUTES_HOLD, earningsPendingCode, receivableCode } from '../ledger';
import { sandboxDisputeId } from './sandbox/sandbox.routes';
import { SANDBOX_SIGNATURE_HEADER, type SandboxEvent, signSandboxEvent } from './sandbox/sandbox-provider';

/**
 * Chargebacks (issue 19): a dispute opened on a card payment holds its amount (from the balance, and
 * from a receivable for what was already spent), a won one gives it back, a lost one lets it leave
 * through the provider's clearing. Through the sandbox's disputing test card and through signed Stripe events.
 */

const DISPUTING_CARD = '4000000000000259';
const year = String(new Date().getUTCFullYear() + 2);

type Person = Awaited<ReturnType<typeof registerPerson>>;

async function reconciliation(admin: Person) {
  return (await admin.client.get('/api/admin/ledger/reconciliation')).json().payload as {
    ok: boolean;
    first_mismatch: { kind: string; id: number | null } | null;
    unbalanced_earnings: number[];
    dispute_hold_minor: number;
  };
}

type DisputeRow = {
  id: number;
  status: string;
  deposit_id: number;
  user: { id: number };
  amount: { amount_minor: number; currency: string };
  from_balance_minor: number;
  from_receivable_minor: number;
  closed_at: number | null;
};
async function disputesOf(admin: Person, userId: number, status = ''): Promise<DisputeRow[]> {
  const res = await admin.client.get(`/api/admin/disputes${status ? `?status=${status}` : ''}`);
  expect(res.statusCode).toBe(200);
  return (res.json().payload as DisputeRow[]).filter((d) => d.user.id === userId);
}

async function receivableOf(admin: Person, userId: number): Promise<number | null> {
  const rows = (await admin.client.get('/api/admin/receivables')).json().payload as { user: { id: number }; amount: { amount_minor: number } }[];
  return rows.find((r) => r.user.id === userId)?.amount.amount_minor ?? null;
}

describe('disputes through the sandbox', () => {
  const t = useTestApp({ seed: true });
  let admin: Person;
  beforeAll(async () => {
    admin = await registerStaff(t.app);
  });

  /** Pays `amount` EUR on the sandbox's hosted page with `card`; answers the deposit id. */
  async function payByCard(client: TestClient, amount: number, card: string): Promise<number> {
    const start = (await client.post('/api/deposit/checkout', { amount, currency: 'EUR', payment_method: 'sandbox-card' })).json().payload as {
      order_id: number;
      redirect_url: string;
    };
    const page = await t.app.inject({ method: 'GET', url: new URL(start.redirect_url).pathname });
    const action = /<form method="post" action="([^"]+)"/.exec(page.body)![1]!.replaceAll('&amp;', '&');
    const paid = await t.app.inject({
      method: 'POST',
      url: action,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ card_number: card, exp_month: '12', exp_year: year, cvc: '123' }).toString(),
    });
    expect(paid.statusCode).toBe(303);
    return start.order_id;
  }

  /** The provider's side: a signed sandbox event to the webhook route. */
  const send = (event: SandboxEvent) => sendSandboxEvent(t.app, event);

  const closeEvent = (id: string, depositId: number, status: 'won' | 'lost'): SandboxEvent => ({
    id,
    type: 'dispute.closed',
    data: { deposit_id: depositId, dispute_id: sandboxDisputeId(depositId), dispute_status: status },
  });

  it('the test card 4000 0000 0000 0259 pays, then a dispute holds the money; lost, it leaves through the clearing, once', async () => {
    const buyer = await registerPerson(t.app);
    const clearingBefore = await accountMinor(t.app, clearingAccountCode('sandbox'));
    const depositId = await payByCard(buyer.client, 25, DISPUTING_CARD);

    // The payment succeeded (the user sees it), and its money is on hold at once.
    expect((await buyer.client.get(`/api/deposit/status?order_id=${depositId}`)).json().payload.status).toBe('success');
    expect((await buyer.client.get('/api/balance')).json().payload.amount_minor).toBe(0);
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(2500);
    const [open] = await disputesOf(admin, buyer.id, 'open');
    expect(open).toMatchObject({ status: 'open', deposit_id: depositId, amount: { amount_minor: 2500 }, from_balance_minor: 2500, from_receivable_minor: 0 });

    // The account is flagged for staff, and staff heard of it.
    expect((await admin.client.get(`/api/admin/users/${buyer.id}`)).json().payload.user.disputed).toBe(true);
    const bell = (await admin.client.get('/api/notifications')).json().payload as { kind: string; text: string }[];
    expect(bell.some((n) => n.kind === 'dispute_opened' && n.text.includes(`user #${buyer.id}`))).toBe(true);
    expect((await reconciliation(admin)).ok).toBe(true);

    // Lost: the held money leaves as it came; replayed or sent again, the close moves nothing twice.
    expect(await send(closeEvent('evt_close_lost_1', depositId, 'lost'))).toBe('applied');
    expect(await send(closeEvent('evt_close_lost_1', depositId, 'lost'))).toBe('duplicate');
    expect(await send(closeEvent('evt_close_lost_2', depositId, 'won'))).toBe('ignored');
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(0);
    expect(await accountMinor(t.app, clearingAccountCode('sandbox'))).toBe(clearingBefore);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    const [lost] = await disputesOf(admin, buyer.id);
    expect(lost).toMatchObject({ status: 'lost' });
    expect(lost!.closed_at).not.toBeNull();
    expect(await disputesOf(admin, buyer.id, 'open')).toEqual([]);
    expect((await reconciliation(admin)).ok).toBe(true);
  });

  it('a dispute on money already spent makes a receivable; won, the balance and the receivable are restored', async () => {
    const buyer = await registerPerson(t.app);
    const creator = await registerPerson(t.app);
    const depositId = await payByCard(buyer.client, 20, '4242424242424242');
    expect(await balanceMinor(t.app, buyer.id)).toBe(2000);
    // The buyer spends 15 € of it on a creator's work.
    await sellPrompt(t.app, buyer, creator.id, 1500, { funded: true });
    expect(await balanceMinor(t.app, buyer.id)).toBe(500);

    const opened: SandboxEvent = {
      id: 'evt_open_won_1',
      type: 'dispute.created',
      data: { deposit_id: depositId, dispute_id: 'dp_manual_won', dispute_reason: 'fraudulent' },
    };
    expect(await send(opened)).toBe('applied');
    // The same event again, or another event for the same dispute: held once.
    expect(await send(opened)).toBe('duplicate');
    expect(await send({ ...opened, id: 'evt_open_won_2' })).toBe('ignored');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect(await accountMinor(t.app, receivableCode(buyer.id))).toBe(-1500);
    expect(await receivableOf(admin, buyer.id)).toBe(-1500);
    const [open] = await disputesOf(admin, buyer.id, 'open');
    expect(open).toMatchObject({ amount: { amount_minor: 2000 }, from_balance_minor: 500, from_receivable_minor: 1500 });
    // A payment under dispute cannot also be refunded by the provider.
    expect(await send({ id: 'evt_refund_disputed', type: 'charge.refunded', data: { deposit_id: depositId } })).toBe('ignored');
    expect((await reconciliation(admin)).ok).toBe(true);

    const won: SandboxEvent = {
      id: 'evt_close_won_1',
      type: 'dispute.closed',
      data: { deposit_id: depositId, dispute_id: 'dp_manual_won', dispute_status: 'won' },
    };
    expect(await send(won)).toBe('applied');
    expect(await send(won)).toBe('duplicate');
    expect((await buyer.client.get('/api/balance')).json().payload.amount_minor).toBe(500);
    expect(await accountMinor(t.app, receivableCode(buyer.id))).toBe(0);
    expect(await receivableOf(admin, buyer.id)).toBeNull();
    expect((await disputesOf(admin, buyer.id, 'won')).map((d) => d.status)).toEqual(['won']);
    expect((await reconciliation(admin)).ok).toBe(true);
  });

  it('won after the debt was settled, the whole amount goes back to the balance', async () => {
    const buyer = await registerPerson(t.app);
    const creator = await registerPerson(t.app);
    const depositId = await payByCard(buyer.client, 20, '4242424242424242');
    await sellPrompt(t.app, buyer, creator.id, 2000, { funded: true });
    const disputeId = 'dp_settled_then_won';
    expect(await send({ id: 'evt_settled_open', type: 'dispute.created', data: { deposit_id: depositId, dispute_id: disputeId } })).toBe('applied');
    expect(await receivableOf(admin, buyer.id)).toBe(-2000);
    // Staff settle the debt (the buyer paid it another way): the receivable is back to zero.
    const [receivable] = await t.app.db
      .select()
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.code, receivableCode(buyer.id)));
    const settled = await admin.client.post('/api/admin/ledger/adjustments', { account_id: receivable!.id, amount: 20, reason: 'Debt paid by bank transfer' });
    expect(settled.statusCode).toBe(200);
    expect(await receivableOf(admin, buyer.id)).toBeNull();
    expect(await send({ id: 'evt_settled_won', type: 'dispute.closed', data: { deposit_id: depositId, dispute_id: disputeId, dispute_status: 'won' } })).toBe(
      'applied',
    );
    expect((await buyer.client.get('/api/balance')).json().payload.amount_minor).toBe(2000);
    expect(await accountMinor(t.app, receivableCode(buyer.id))).toBe(0);
    expect((await reconciliation(admin)).ok).toBe(true);
  });

  it('issue 30: a buyer who owes a chargeback pays it from their next deposit first', async () => {
    const buyer = await registerPerson(t.app);
    const creator = await registerPerson(t.app);
    const depositId = await payByCard(buyer.client, 20, '4242424242424242');
    await sellPrompt(t.app, buyer, creator.id, 2000, { funded: true });
    expect(await send({ id: 'evt_debt_open', type: 'dispute.created', data: { deposit_id: depositId, dispute_id: 'dp_debt_lost' } })).toBe('applied');
    expect(
      await send({ id: 'evt_debt_lost', type: 'dispute.closed', data: { deposit_id: depositId, dispute_id: 'dp_debt_lost', dispute_status: 'lost' } }),
    ).toBe('applied');
    expect(await receivableOf(admin, buyer.id)).toBe(-2000);
    // 15 € paid in: all of it pays the debt; then 10 €: 5 € pays the rest, 5 € is the balance.
    await payByCard(buyer.client, 15, '4242424242424242');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect(await receivableOf(admin, buyer.id)).toBe(-500);
    await payByCard(buyer.client, 10, '4242424242424242');
    expect((await buyer.client.get('/api/balance')).json().payload.amount_minor).toBe(500);
    expect(await receivableOf(admin, buyer.id)).toBeNull();
    expect((await reconciliation(admin)).ok).toBe(true);
  });

  it('a refund by the provider takes the deposit back once', async () => {
    const buyer = await registerPerson(t.app);
    const depositId = await payByCard(buyer.client, 10, '4242424242424242');
    const refund: SandboxEvent = { id: 'evt_refund_1', type: 'charge.refunded', data: { deposit_id: depositId } };
    expect(await send(refund)).toBe('applied');
    expect(await send(refund)).toBe('duplicate');
    expect(await send({ ...refund, id: 'evt_refund_2' })).toBe('ignored');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    const [row] = await t.app.db.select({ refundedAt: deposits.refundedAt }).from(deposits).where(eq(deposits.id, depositId));
    expect(row!.refundedAt).not.toBeNull();
    // A refunded payment is not held again by a late dispute.
    expect(await send({ id: 'evt_open_after_refund', type: 'dispute.created', data: { deposit_id: depositId, dispute_id: 'dp_after_refund' } })).toBe(
      'ignored',
    );
    expect((await reconciliation(admin)).ok).toBe(true);
  });

  it("an event for another user's or an unknown payment changes nothing", async () => {
    expect(await send({ id: 'evt_unknown', type: 'dispute.created', data: { deposit_id: 999_999, dispute_id: 'dp_unknown' } })).toBe('ignored');
    expect(
      await send({ id: 'evt_unknown_close', type: 'dispute.closed', data: { deposit_id: 999_999, dispute_id: 'dp_unknown', dispute_status: 'lost' } }),
    ).toBe('ignored');
    const bad = signSandboxEvent(t.app.config, { id: 'evt_forged', type: 'dispute.created', data: { deposit_id: 1, dispute_id: 'dp_forged' } });
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook/sandbox',
      // One hex digit changed, whatever it was (a fixed '0' would leave 1 signature in 16 intact).
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: bad.signature.replace(/v1=(.)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`),
      },
      payload: bad.raw,
    });
    expect(forged.statusCode).toBe(400);
  });

  it('the reconciliation is green after the disputes and red when a pending earnings balance is corrupted', async () => {
    const creator = await registerPerson(t.app);
    const buyer = await registerPerson(t.app);
    await payByCard(buyer.client, 10, '4242424242424242');
    await sellPrompt(t.app, buyer, creator.id, 1000, { funded: true });
    expect(await pendingMinor(t.app, creator.id)).toBe(800);
    expect((await reconciliation(admin)).ok).toBe(true);
    const [account] = await t.app.db
      .select()
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.code, earningsPendingCode(creator.id)));
    await t.app.db.execute(sql`update ledger_accounts set balance_minor = balance_minor + 100 where id = ${account!.id}`);
    try {
      const red = await reconciliation(admin);
      expect(red.ok).toBe(false);
      // The creator's earnings no longer add up to what their sales brought in.
      expect(red.unbalanced_earnings).toEqual([creator.id]);
    } finally {
      await t.app.db.execute(sql`update ledger_accounts set balance_minor = balance_minor - 100 where id = ${account!.id}`);
    }
    expect((await reconciliation(admin)).ok).toBe(true);
  });

  it('the disputes and receivables lists are for staff only', async () => {
    const other = await registerPerson(t.app);
    const guest = new TestClient(t.app);
    for (const url of ['/api/admin/disputes', '/api/admin/disputes?status=open', '/api/admin/receivables']) {
      expect((await other.client.get(url)).statusCode).toBe(403);
      expect((await guest.get(url)).statusCode).toBe(401);
    }
    const bad = await admin.client.get('/api/admin/disputes?status=pending');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.status).toEqual(['The status must be open, won or lost.']);
  });
});

describe('disputes through signed Stripe events', () => {
  const secret = 'whsec_test_disputes';
  const t = useTestApp({ seed: true, env: stripeTestEnv(secret) });
  let admin: Person;
  beforeAll(async () => {
    admin = await registerStaff(t.app);
  });

  const send = (event: StripeEvent) => sendStripeEvent(t.app, secret, event);
  const paidDeposit = (userId: number, minor: number) => paidStripeDeposit(t.app, secret, userId, minor);
  const dispute = (id: string, pi: string, status: string) => stripeDispute(id, pi, status, 3000);

  it('charge.dispute.created holds the money; charge.dispute.closed as won gives it back, replays credited once', async () => {
    const buyer = await registerPerson(t.app);
    const { pi } = await paidDeposit(buyer.id, 3000);
    expect(await balanceMinor(t.app, buyer.id)).toBe(3000);
    const created = { id: 'evt_du_won_created', type: 'charge.dispute.created', data: { object: dispute('du_won', pi, 'needs_response') } };
    expect(await send(created)).toBe('applied');
    expect(await send(created)).toBe('duplicate');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(3000);
    expect((await admin.client.get(`/api/admin/users/${buyer.id}`)).json().payload.user.disputed).toBe(true);

    const closed = { id: 'evt_du_won_closed', type: 'charge.dispute.closed', data: { object: dispute('du_won', pi, 'won') } };
    expect(await send(closed)).toBe('applied');
    expect(await send(closed)).toBe('duplicate');
    expect(await send({ ...closed, id: 'evt_du_won_closed_again' })).toBe('ignored');
    expect((await buyer.client.get('/api/balance')).json().payload.amount_minor).toBe(3000);
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(0);
    expect((await disputesOf(admin, buyer.id)).map((d) => d.status)).toEqual(['won']);
    expect((await reconciliation(admin)).ok).toBe(true);
  });

  it('ten deliveries of one dispute at once, each with its own event id, hold the money once', async () => {
    const buyer = await registerPerson(t.app);
    const { pi } = await paidDeposit(buyer.id, 3000);
    const holdBefore = await accountMinor(t.app, DISPUTES_HOLD);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        send({ id: `evt_du_race_${i}`, type: 'charge.dispute.created', data: { object: dispute('du_race', pi, 'needs_response') } }),
      ),
    );
    expect(results.filter((r) => r === 'applied')).toHaveLength(1);
    expect(results.filter((r) => r === 'ignored')).toHaveLength(9);
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(holdBefore + 3000);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect(await disputesOf(admin, buyer.id, 'open')).toHaveLength(1);
    expect((await reconciliation(admin)).ok).toBe(true);
  });

  it('charge.dispute.closed as lost lets the money leave through the Stripe clearing', async () => {
    const buyer = await registerPerson(t.app);
    const clearingBefore = await accountMinor(t.app, clearingAccountCode('stripe'));
    const { pi } = await paidDeposit(buyer.id, 3000);
    expect(await send({ id: 'evt_du_lost_created', type: 'charge.dispute.created', data: { object: dispute('du_lost', pi, 'needs_response') } })).toBe(
      'applied',
    );
    // A closing status that is not a decision changes nothing.
    expect(await send({ id: 'evt_du_lost_review', type: 'charge.dispute.closed', data: { object: dispute('du_lost', pi, 'under_review') } })).toBe('ignored');
    expect(await send({ id: 'evt_du_lost_closed', type: 'charge.dispute.closed', data: { object: dispute('du_lost', pi, 'lost') } })).toBe('applied');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect(await accountMinor(t.app, clearingAccountCode('stripe'))).toBe(clearingBefore);
    expect((await disputesOf(admin, buyer.id)).map((d) => d.status)).toEqual(['lost']);
    expect((await reconciliation(admin)).ok).toBe(true);
  });

  it('charge.refunded refunds the deposit once, and only a full refund', async () => {
    const buyer = await registerPerson(t.app);
    const { depositId, pi } = await paidDeposit(buyer.id, 1200);
    const charge = (refunded: boolean) => ({
      object: 'charge',
      id: `ch_${pi}`,
      payment_intent: pi,
      refunded,
      amount_refunded: refunded ? 1200 : 500,
      metadata: { deposit_id: String(depositId) },
    });
    expect(await send({ id: 'evt_partial', type: 'charge.refunded', data: { object: charge(false) } })).toBe('ignored');
    expect(await balanceMinor(t.app, buyer.id)).toBe(1200);
    expect(await send({ id: 'evt_full', type: 'charge.refunded', data: { object: charge(true) } })).toBe('applied');
    expect(await send({ id: 'evt_full', type: 'charge.refunded', data: { object: charge(true) } })).toBe('duplicate');
    expect(await send({ id: 'evt_full_again', type: 'charge.refunded', data: { object: charge(true) } })).toBe('ignored');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect((await reconciliation(admin)).ok).toBe(true);
  });
});
