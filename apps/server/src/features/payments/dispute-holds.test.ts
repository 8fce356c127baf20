import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { accountMinor, balanceMinor } from '../../../test/commerce';
import { disputeClosed, disputeOpened, paidStripeDeposit, type StripeEvent, sendStripeEvent, stripeTestEnv } from '../../../test/payments';
import { useTestApp } from '../../../test/test-app';
import { disputes } from '../../db/schema';
import { clearingAccountCode, DISPUTES_HOLD, receivableCode } from '../ledger';
import { disputeHoldMinor } from './disputes';

/**
 * Issue 29, item 8: a dispute holds the amount the provider's event disputes, never more than the
 * payment; a second dispute id for the same payment never holds the same money twice; and the
 * reconciliation checks the hold against the open disputes' amounts, in all and each on its own.
 * Through signed Stripe events; run it with DATABASE_URL too (two disputes of one payment at once).
 */

const secret = 'whsec_test_dispute_holds';
type Person = Awaited<ReturnType<typeof registerPerson>>;
const t = useTestApp({ seed: true, env: stripeTestEnv(secret) });
let admin: Person;
beforeAll(async () => {
  admin = await registerStaff(t.app);
});

type Reconciliation = {
  ok: boolean;
  first_mismatch: { kind: string; id: number | null; actual_minor: number; expected_minor: number } | null;
  mismatched_disputes: number[];
};
async function reconciliation(): Promise<Reconciliation> {
  const res = await admin.client.get('/api/admin/ledger/reconciliation');
  expect(res.statusCode).toBe(200);
  return res.json().payload as Reconciliation;
}

const send = (event: StripeEvent) => sendStripeEvent(t.app, secret, event);
const paidDeposit = (userId: number, eurMinor: number, currency = 'EUR', charged = eurMinor) =>
  paidStripeDeposit(t.app, secret, userId, eurMinor, { currency, charged });
const opened = disputeOpened;
const closed = disputeClosed;

async function disputeRow(providerDisputeId: string) {
  const [row] = await t.app.db.select().from(disputes).where(eq(disputes.providerDisputeId, providerDisputeId));
  return row!;
}

describe('what a dispute holds (issue 29)', () => {
  it('holds the disputed amount from the event, not the whole payment; lost, only that leaves through the clearing', async () => {
    const buyer = await registerPerson(t.app);
    const { pi } = await paidDeposit(buyer.id, 3000);
    const hold = await accountMinor(t.app, DISPUTES_HOLD);
    const clearing = await accountMinor(t.app, clearingAccountCode('stripe'));
    expect(await send(opened('du_part', pi, 1200))).toBe('applied');
    expect(await balanceMinor(t.app, buyer.id)).toBe(1800);
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(hold + 1200);
    expect(await disputeRow('du_part')).toMatchObject({ amountMinor: 1200, disputedMinor: 1200, disputedCurrency: 'EUR', status: 'open' });
    const open = (await admin.client.get('/api/admin/disputes?status=open')).json().payload as { id: number; amount: { amount_minor: number } }[];
    expect(open.some((d) => d.amount.amount_minor === 1200)).toBe(true);
    expect((await reconciliation()).ok).toBe(true);

    expect(await send(closed('du_part', pi, 'lost', 1200))).toBe('applied');
    expect(await balanceMinor(t.app, buyer.id)).toBe(1800);
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(hold);
    // The lost 1200 went back out through the clearing the deposit came in by (its balance is minus what is in).
    expect(await accountMinor(t.app, clearingAccountCode('stripe'))).toBe(clearing + 1200);
    expect((await reconciliation()).ok).toBe(true);
  });

  it('never holds more than the payment, even when the event disputes more', async () => {
    const buyer = await registerPerson(t.app);
    const { pi } = await paidDeposit(buyer.id, 3000);
    const hold = await accountMinor(t.app, DISPUTES_HOLD);
    expect(await send(opened('du_over', pi, 9000))).toBe('applied');
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(hold + 3000);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect(await accountMinor(t.app, receivableCode(buyer.id))).toBe(0);
    expect(await disputeRow('du_over')).toMatchObject({ amountMinor: 3000, disputedMinor: 9000 });
    expect((await reconciliation()).ok).toBe(true);
  });

  it('converts a dispute in the payment currency as the payment was, a part rounding up', async () => {
    const buyer = await registerPerson(t.app);
    // 30.00 USD paid, 27.61 EUR credited.
    const { pi } = await paidDeposit(buyer.id, 2761, 'USD', 3000);
    expect(await send(opened('du_usd', pi, 1000, 'usd'))).toBe('applied');
    // 2761 × 1000 / 3000 = 920.33 → 921 EUR cents.
    expect(await disputeRow('du_usd')).toMatchObject({ amountMinor: 921, disputedMinor: 1000, disputedCurrency: 'USD' });
    expect(await balanceMinor(t.app, buyer.id)).toBe(2761 - 921);
    expect((await reconciliation()).ok).toBe(true);
  });

  it('a second dispute id for the same payment never holds the same money twice', async () => {
    const buyer = await registerPerson(t.app);
    const { pi } = await paidDeposit(buyer.id, 3000);
    const hold = await accountMinor(t.app, DISPUTES_HOLD);
    expect(await send(opened('du_first', pi, 3000))).toBe('applied');
    expect(await send(opened('du_second', pi, 3000))).toBe('applied');
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(hold + 3000);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect(await accountMinor(t.app, receivableCode(buyer.id))).toBe(0);
    expect(await disputeRow('du_second')).toMatchObject({ amountMinor: 0, disputedMinor: 3000, status: 'open' });
    expect((await reconciliation()).ok).toBe(true);

    // The second one closes: nothing of its own to give back or let go.
    expect(await send(closed('du_second', pi, 'won', 3000))).toBe('applied');
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(hold + 3000);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    // The first one won: the payment's money comes back once.
    expect(await send(closed('du_first', pi, 'won', 3000))).toBe('applied');
    expect(await balanceMinor(t.app, buyer.id)).toBe(3000);
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(hold);
    expect((await reconciliation()).ok).toBe(true);
  });

  it('a second dispute of part of a payment holds only what the first one left', async () => {
    const buyer = await registerPerson(t.app);
    const { pi } = await paidDeposit(buyer.id, 3000);
    expect(await send(opened('du_a', pi, 1000))).toBe('applied');
    expect(await send(opened('du_b', pi, 2500))).toBe('applied');
    expect((await disputeRow('du_a')).amountMinor).toBe(1000);
    expect((await disputeRow('du_b')).amountMinor).toBe(2000);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    // A lost dispute's money is gone: a third one finds nothing left to hold.
    expect(await send(closed('du_a', pi, 'lost', 1000))).toBe('applied');
    expect(await send(opened('du_c', pi, 3000))).toBe('applied');
    expect((await disputeRow('du_c')).amountMinor).toBe(0);
    expect((await reconciliation()).ok).toBe(true);
  });

  it('two dispute ids for one payment arriving at once hold the payment once', async () => {
    const buyer = await registerPerson(t.app);
    const { pi } = await paidDeposit(buyer.id, 3000);
    const hold = await accountMinor(t.app, DISPUTES_HOLD);
    const results = await Promise.all(['du_race_1', 'du_race_2', 'du_race_3', 'du_race_4'].map((id) => send(opened(id, pi, 3000))));
    expect(results).toEqual(['applied', 'applied', 'applied', 'applied']);
    expect(await accountMinor(t.app, DISPUTES_HOLD)).toBe(hold + 3000);
    const rows = await Promise.all(['du_race_1', 'du_race_2', 'du_race_3', 'du_race_4'].map(disputeRow));
    expect(rows.map((r) => r.amountMinor).sort((a, b) => b - a)).toEqual([3000, 0, 0, 0]);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect(await accountMinor(t.app, receivableCode(buyer.id))).toBe(0);
    expect((await reconciliation()).ok).toBe(true);
  });

  it('the reconciliation checks each open dispute against its own hold, not only the total', async () => {
    const buyer = await registerPerson(t.app);
    const one = await paidDeposit(buyer.id, 1000);
    const two = await paidDeposit(buyer.id, 3000);
    expect(await send(opened('du_reco_1', one.pi, 1000))).toBe('applied');
    expect(await send(opened('du_reco_2', two.pi, 3000))).toBe('applied');
    expect((await reconciliation()).ok).toBe(true);
    const a = await disputeRow('du_reco_1');
    const b = await disputeRow('du_reco_2');
    // Corrupt the rows so that the total still matches the hold but neither dispute does.
    const swap = async (x: typeof a, amount: number) =>
      t.app.db.update(disputes).set({ amountMinor: amount, fromBalanceMinor: amount, fromReceivableMinor: 0 }).where(eq(disputes.id, x.id));
    await swap(a, 3000);
    await swap(b, 1000);
    const red = await reconciliation();
    expect(red.ok).toBe(false);
    expect(red.first_mismatch).toEqual({ kind: 'dispute', id: a.id, actual_minor: 1000, expected_minor: 3000 });
    expect(red.mismatched_disputes).toEqual([a.id, b.id]);
    await swap(a, 1000);
    await swap(b, 3000);
    expect((await reconciliation()).ok).toBe(true);
  });
});

describe('disputeHoldMinor', () => {
  const eur = { amountMinor: 3000, currency: 'EUR', currencyAmountMinor: 3000 };
  it('takes the event amount, caps it at the payment and at what other disputes leave', () => {
    expect(disputeHoldMinor(eur, { amountMinor: 1200 }, 0)).toBe(1200);
    expect(disputeHoldMinor(eur, { amountMinor: 1200, currency: 'eur' }, 0)).toBe(1200);
    expect(disputeHoldMinor(eur, { amountMinor: 5000 }, 0)).toBe(3000);
    expect(disputeHoldMinor(eur, { amountMinor: 3000 }, 2500)).toBe(500);
    expect(disputeHoldMinor(eur, { amountMinor: 3000 }, 3000)).toBe(0);
    expect(disputeHoldMinor(eur, { amountMinor: 3000 }, 4000)).toBe(0);
  });
  it('holds the whole payment when the event names no amount, or another currency', () => {
    expect(disputeHoldMinor(eur, undefined, 0)).toBe(3000);
    expect(disputeHoldMinor(eur, { amountMinor: 100, currency: 'USD' }, 0)).toBe(3000);
    expect(disputeHoldMinor({ amountMinor: 2761, currency: 'USD', currencyAmountMinor: 3000 }, { amountMinor: 1000, currency: 'usd' }, 0)).toBe(921);
  });
});
