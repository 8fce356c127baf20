import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { availableMinor, balanceMinor, fund } from '../../../test/commerce';
import { payoutContact } from '../../../test/payouts';
import { useTestApp } from '../../../test/test-app';
import { ledgerAccounts, products } from '../../db/schema';
import { checkLedger, releaseDueEarnings } from '../ledger';

/**
 * A refund racing a withdrawal of the same money: on PostgreSQL (run with DATABASE_URL) the two
 * requests of each creator race at once; the embedded PGlite runs one statement at a time, so it
 * proves the same rules without the race. Whichever takes the creator's available earnings first,
 * they never go below zero: the withdrawal wins and the refund makes a receivable, or the refund
 * wins and the withdrawal is refused as above available. The ledger stays exact.
 */
const CREATORS = 6;

const t = useTestApp({ registration: true });

const sepa = { ...payoutContact, method: 'sepa', amount: 16, account_number: 'DE89370400440532013000', recipient_full_name: 'Ines Duarte' };

async function soldAndAsked(n: number) {
  const creator = await registerSeller(t.app);
  const [product] = await t.app.db
    .insert(products)
    .values({ slug: `race-${n}-${creator.id}`, title: `Race ${n}`, productType: 'prompt', promptText: 'A heron', authorId: creator.id, priceMinor: 2000 })
    .returning({ id: products.id });
  const buyer = await registerPerson(t.app);
  await fund(t.app, buyer.id, 2000);
  const bought = await buyer.client.post('/api/purchase/prompt', { prompt_id: product!.id });
  expect(bought.statusCode).toBe(200);
  const asked = await buyer.client.post(`/api/orders/${bought.json().payload.order.id}/refund-request`, { reason: 'other', message: 'Changed my mind.' });
  expect(asked.statusCode).toBe(200);
  await creator.client.csrf();
  return { creator, buyer, requestId: asked.json().payload.id as number };
}

describe('a refund racing a withdrawal', () => {
  it('never leaves available earnings below zero: either the withdrawal or the refund takes them, the rest is a receivable or a 422', async () => {
    const staff = await registerStaff(t.app);
    const cases = [];
    for (let n = 0; n < CREATORS; n++) cases.push(await soldAndAsked(n));
    await releaseDueEarnings(t.app.db, { clearingDays: 0 });
    await staff.client.csrf();

    const answers = await Promise.all(
      cases.map(async ({ creator, requestId }) => {
        const [withdrawal, refund] = await Promise.all([
          creator.client.post('/api/earnings/withdraw', sepa),
          staff.client.post(`/api/admin/refund-requests/${requestId}/resolve`, { decision: 'refund', note: 'Race' }),
        ]);
        return { withdrawal: withdrawal.statusCode, refund: refund.statusCode };
      }),
    );

    for (const [i, answer] of answers.entries()) {
      const { creator, buyer } = cases[i]!;
      // The refund always goes through; the withdrawal only if it took the money first.
      expect(answer.refund).toBe(200);
      expect([200, 422]).toContain(answer.withdrawal);
      expect(await availableMinor(t.app, creator.id)).toBe(0);
      expect(await balanceMinor(t.app, buyer.id)).toBe(2000);
      const [receivable] = await t.app.db
        .select()
        .from(ledgerAccounts)
        .where(eq(ledgerAccounts.code, `receivable:${creator.id}`));
      expect(Number(receivable?.balanceMinor ?? 0)).toBe(answer.withdrawal === 200 ? -1600 : 0);
    }
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
