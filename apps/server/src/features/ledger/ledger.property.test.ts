import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { disputeClosed, disputeOpened, paidStripeDeposit, sendStripeEvent, stripeTestEnv } from '../../../test/payments';
import { payoutContact } from '../../../test/payouts';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { products } from '../../db/schema';
import { checkLedger, releaseDueEarnings } from '.';

/**
 * Issue 30: random sequences of card deposits (signed Stripe events), sales of works and of packs,
 * refund requests (refunded or rejected), releases, clearing changes, withdrawals, payout outcomes and
 * disputes of the deposits (opened, won or lost), through the real API. After every step: the
 * journal balances, each balance equals its entries, each creator's pending and held earnings equal
 * their sold lines (checkLedger), and no account of a user is below zero except receivables.
 */
type Person = { id: number; client: TestClient };
let buyers: Person[] = [];
let creators: Person[] = [];
let staff: Person;
let serial = 0;
let clearingDays = 7;
const secret = 'whsec_test_property';
/** The card deposits made so far, with their disputes' state ('none', 'open', 'closed'). */
/** What the runs did, so the test shows it walked packs and disputes, not just generated them. */
const seen = { packSold: 0, disputed: 0, disputeEnded: 0, refunded: 0 };
const paid: { pi: string; minor: number; dispute: 'none' | 'open' | 'closed' }[] = [];

const t = useTestApp({ env: stripeTestEnv(secret), registration: true });
beforeAll(async () => {
  buyers = [await registerPerson(t.app), await registerPerson(t.app)];
  creators = [await registerSeller(t.app), await registerSeller(t.app)];
  staff = await registerStaff(t.app);
});

type Cmd =
  | { k: 'deposit'; buyer: number; minor: number }
  | { k: 'sale'; buyer: number; creator: number; minor: number }
  | { k: 'pack'; buyer: number; prices: [number, number]; minor: number }
  | { k: 'dispute'; pick: number; part: number }
  | { k: 'dispute_end'; pick: number; won: boolean }
  | { k: 'ask'; pick: number }
  | { k: 'decide'; pick: number; refund: boolean }
  | { k: 'release' }
  | { k: 'clearing'; days: number }
  | { k: 'withdraw'; creator: number; part: number }
  | { k: 'payout'; pick: number; paid: boolean };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constant('deposit' as const), buyer: fc.nat(1), minor: fc.integer({ min: 100, max: 3000 }) }),
  fc.record({ k: fc.constant('sale' as const), buyer: fc.nat(1), creator: fc.nat(1), minor: fc.integer({ min: 100, max: 2000 }) }),
  fc.record({
    k: fc.constant('pack' as const),
    buyer: fc.nat(1),
    prices: fc.tuple(fc.integer({ min: 100, max: 1500 }), fc.integer({ min: 100, max: 1500 })),
    minor: fc.integer({ min: 100, max: 2000 }),
  }),
  fc.record({ k: fc.constant('dispute' as const), pick: fc.nat(20), part: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ k: fc.constant('dispute_end' as const), pick: fc.nat(20), won: fc.boolean() }),
  fc.record({ k: fc.constant('ask' as const), pick: fc.nat(20) }),
  fc.record({ k: fc.constant('decide' as const), pick: fc.nat(20), refund: fc.boolean() }),
  fc.record({ k: fc.constant('release' as const) }),
  fc.record({ k: fc.constant('clearing' as const), days: fc.constantFrom(0, 7) }),
  fc.record({ k: fc.constant('withdraw' as const), creator: fc.nat(1), part: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ k: fc.constant('payout' as const), pick: fc.nat(20), paid: fc.boolean() }),
);

const rows = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await t.app.db.execute(q));
const pickOf = <T>(list: T[], n: number) => (list.length ? list[n % list.length]! : null);

async function run(c: Cmd): Promise<void> {
  switch (c.k) {
    case 'deposit': {
      // A card payment, credited by the provider's signed event as in production.
      const { pi } = await paidStripeDeposit(t.app, secret, buyers[c.buyer]!.id, c.minor);
      paid.push({ pi, minor: c.minor, dispute: 'none' });
      return;
    }
    case 'pack': {
      // Two new works, one by each creator, in a pack staff publish; bought from the balance (or refused).
      const works: number[] = [];
      for (const [i, price] of c.prices.entries()) {
        serial++;
        const [w] = await t.app.db
          .insert(products)
          .values({ slug: `prop-work-${serial}`, title: `Prop work ${serial}`, productType: 'image', authorId: creators[i]!.id, priceMinor: price })
          .returning({ id: products.id });
        works.push(w!.id);
      }
      serial++;
      const created = await staff.client.post('/api/admin/packs', {
        title: `Prop pack ${serial}`,
        price: c.minor / 100,
        product_ids: works,
        status: 'published',
      });
      expect(created.statusCode).toBe(200);
      const res = await buyers[c.buyer]!.client.post('/api/purchase/pack', { pack_id: created.json().payload.id });
      expect([200, 422]).toContain(res.statusCode);
      if (res.statusCode === 200) seen.packSold++;
      return;
    }
    case 'dispute': {
      const d = pickOf(
        paid.filter((p) => p.dispute === 'none'),
        c.pick,
      );
      if (!d) return;
      // The provider disputes part of the payment; the hold takes what the balance has, the rest is owed.
      expect(await sendStripeEvent(t.app, secret, disputeOpened(`du_${d.pi}`, d.pi, Math.max(1, Math.floor((d.minor * c.part) / 100))))).toBe('applied');
      d.dispute = 'open';
      seen.disputed++;
      return;
    }
    case 'dispute_end': {
      const d = pickOf(
        paid.filter((p) => p.dispute === 'open'),
        c.pick,
      );
      if (!d) return;
      expect(await sendStripeEvent(t.app, secret, disputeClosed(`du_${d.pi}`, d.pi, c.won ? 'won' : 'lost', d.minor))).toBe('applied');
      d.dispute = 'closed';
      seen.disputeEnded++;
      return;
    }
    case 'sale': {
      serial++;
      const [p] = await t.app.db
        .insert(products)
        .values({
          slug: `prop-${serial}`,
          title: `Prop ${serial}`,
          productType: 'prompt',
          promptText: 'A fox',
          authorId: creators[c.creator]!.id,
          priceMinor: c.minor,
        })
        .returning({ id: products.id });
      const res = await buyers[c.buyer]!.client.post('/api/purchase/prompt', { prompt_id: p!.id });
      expect([200, 422]).toContain(res.statusCode);
      return;
    }
    case 'ask': {
      const open = await rows<{ order_id: string; buyer_id: string; product_id: string }>(
        sql`select o.id as order_id, o.buyer_id, (select i.product_id from order_items i where i.order_id = o.id order by i.position limit 1) as product_id
            from orders o where o.status = 'success' and (o.title like 'Prop %')
            and not exists (select 1 from refund_requests r where r.order_id = o.id) order by o.id`,
      );
      const o = pickOf(open, c.pick);
      if (!o) return;
      const buyer = buyers.find((b) => b.id === Number(o.buyer_id))!;
      const res = await buyer.client.post(`/api/orders/${o.order_id}/refund-request`, {
        // A pack's order names the work asked back.
        product_id: Number(o.product_id),
        reason: 'broken_file',
        message: 'It does not open.',
      });
      expect(res.statusCode, res.body).toBe(200);
      return;
    }
    case 'decide': {
      const open = await rows<{ id: string }>(sql`select id from refund_requests where status in ('open', 'responded') order by id`);
      const r = pickOf(open, c.pick);
      if (!r) return;
      const res = await staff.client.post(`/api/admin/refund-requests/${r.id}/resolve`, { decision: c.refund ? 'refund' : 'reject' });
      expect(res.statusCode).toBe(200);
      if (c.refund) seen.refunded++;
      return;
    }
    case 'release':
      // Every line as if its clearing period had passed.
      await releaseDueEarnings(t.app.db, { clearingDays, now: new Date(Date.now() + 8 * 86_400_000) });
      return;
    case 'clearing': {
      clearingDays = c.days;
      const res = await staff.client.request('PATCH', '/api/admin/settings', { body: { earnings_clearing_days: c.days } });
      expect(res.statusCode).toBe(200);
      await t.app.jobs.runDue();
      return;
    }
    case 'withdraw': {
      const creator = creators[c.creator]!;
      const available = (await creator.client.get('/api/earnings')).json().payload.available.amount_minor as number;
      const minor = Math.floor((available * c.part) / 100);
      if (minor < 100) return;
      const res = await creator.client.post('/api/earnings/withdraw', {
        ...payoutContact,
        method: 'sepa',
        amount: minor / 100,
        account_number: 'DE89370400440532013000',
        recipient_full_name: 'Ines Duarte',
      });
      // Refused when one is already in flight, below the minimum, or while the creator owes.
      expect([200, 409, 422]).toContain(res.statusCode);
      return;
    }
    case 'payout': {
      const open = await rows<{ id: string }>(sql`select id from payouts where kind = 'withdrawal' and status = 'processing' order by id`);
      const p = pickOf(open, c.pick);
      if (!p) return;
      const body = c.paid ? { outcome: 'paid', reference: `BANK-${p.id}` } : { outcome: 'failed', reason: 'The bank refused it.' };
      const res = await staff.client.post(`/api/admin/payouts/${p.id}/complete`, body);
      expect([200, 409]).toContain(res.statusCode);
      return;
    }
  }
}

async function invariants(): Promise<void> {
  expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  const below = await rows<{ id: string }>(
    sql`select id from ledger_accounts where balance_minor < 0 and (user_id is not null or owner_id is not null) and kind <> 'receivable'`,
  );
  expect(below).toEqual([]);
}

describe('issue 30: the money model under random sequences', () => {
  it('keeps every invariant after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 4, maxLength: 12 }), async (cmds) => {
        for (const c of cmds) {
          await run(c);
          await invariants();
        }
      }),
      { numRuns: 12, seed: Number(process.env.PROPERTY_SEED ?? 30) },
    );
    // The fixed seed walks each of these at least once (a new seed that does not is told here).
    expect(seen.packSold).toBeGreaterThan(0);
    expect(seen.disputed).toBeGreaterThan(0);
    expect(seen.disputeEnded).toBeGreaterThan(0);
    expect(seen.refunded).toBeGreaterThan(0);
  });
});
