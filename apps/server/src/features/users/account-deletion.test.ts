import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { availableMinor, fund, pendingMinor } from '../../../test/commerce';
import { payoutContact } from '../../../test/payouts';
import { useTestApp } from '../../../test/test-app';
import { deposits, disputes, products, users } from '../../db/schema';
import { clearingAccountCode, receivableAccountId, releaseDueEarnings, systemAccountId, transfer } from '../ledger';

/**
 * Issue 30 finding 6: deleting an account is refused while money remains or is owed: not only the
 * balance, but earnings pending, available, a receivable (a debt), a withdrawal on its way, an open
 * refund request (as buyer or creator) and an open dispute. Each case has its own sentence (422); the
 * account stays as it was.
 */
const t = useTestApp({ registration: true });

async function prompt(authorId: number, title: string, priceMinor: number) {
  const [row] = await t.app.db
    .insert(products)
    .values({ slug: `deletion-${authorId}-${priceMinor}`, title, productType: 'prompt', promptText: 'A heron at dusk', authorId, priceMinor })
    .returning({ id: products.id });
  return row!.id;
}

type Person = Awaited<ReturnType<typeof registerPerson>>;
const remove = (p: Person) => p.client.request('DELETE', '/api/user/delete', { body: { password: p.password } });

async function refused(p: Person): Promise<{ message: string; errors: Record<string, string[]> }> {
  const res = await remove(p);
  expect(res.statusCode).toBe(422);
  const [row] = await t.app.db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, p.id));
  expect(row!.deletedAt).toBeNull();
  return res.json();
}

describe('issue 30 finding 6: deleting an account while money remains or is owed', () => {
  it('is refused for pending and available earnings, a withdrawal on its way and an open refund request, each with its sentence; then it goes', async () => {
    // A seller with trader details (issue 33), so the withdrawal below may start.
    const creator = await registerSeller(t.app);
    const buyer = await registerPerson(t.app);
    const staff = await registerStaff(t.app);
    const productId = await prompt(creator.id, 'Heron at dusk', 2000);
    await fund(t.app, buyer.id, 2000);
    const bought = await buyer.client.post('/api/purchase/prompt', { prompt_id: productId });
    expect(bought.statusCode).toBe(200);
    expect(await pendingMinor(t.app, creator.id)).toBe(1600);

    const pending = await refused(creator);
    expect(pending.message).toBe(
      '€16.00 of your earnings are still in the clearing period. Once they are available, withdraw them from the Earnings tab; then delete your account.',
    );
    expect(pending.errors.earnings_pending).toEqual([pending.message]);

    // The buyer asks for a refund: neither side may leave while it is open.
    const asked = await buyer.client.post(`/api/orders/${bought.json().payload.order.id}/refund-request`, {
      reason: 'broken_file',
      message: 'It does not open.',
    });
    expect(asked.statusCode).toBe(200);
    const asBuyer = await refused(buyer);
    expect(asBuyer.message).toBe('Your refund request for "Heron at dusk" is still open. Once it is decided, delete your account.');
    expect(asBuyer.errors.refund_request).toEqual([asBuyer.message]);
    const asCreator = await refused(creator);
    expect(asCreator.errors.refund_request).toEqual([
      'A buyer\'s refund request for "Heron at dusk" is waiting for a decision. Once it is decided, delete your account.',
    ]);
    expect(asCreator.errors.earnings_pending).toHaveLength(1);
    expect((await staff.client.post(`/api/admin/refund-requests/${asked.json().payload.id}/resolve`, { decision: 'reject' })).statusCode).toBe(200);

    await releaseDueEarnings(t.app.db, { clearingDays: 0 });
    expect(await availableMinor(t.app, creator.id)).toBe(1600);
    const available = await refused(creator);
    expect(available.message).toBe('You have €16.00 of available earnings. Withdraw them from the Earnings tab, then delete your account.');
    expect(available.errors.earnings_available).toEqual([available.message]);

    const sepa = { ...payoutContact, method: 'sepa', amount: 16, account_number: 'DE89370400440532013000', recipient_full_name: 'Ines Duarte' };
    const withdrawn = await creator.client.post('/api/earnings/withdraw', sepa);
    expect(withdrawn.statusCode).toBe(200);
    const inFlight = await refused(creator);
    expect(inFlight.message).toBe('Your withdrawal of €16.00 is on its way. Once it is paid or has failed, delete your account.');
    expect(inFlight.errors.payout).toEqual([inFlight.message]);

    const payoutId = withdrawn.json().payload.withdrawal.id;
    expect((await staff.client.post(`/api/admin/payouts/${payoutId}/complete`, { outcome: 'paid', reference: 'BANK-1' })).statusCode).toBe(200);
    const gone = await remove(creator);
    expect(gone.json()).toEqual({ status: 'OK', message: 'Account deleted successfully!' });
    expect((await remove(buyer)).statusCode).toBe(200);
  });

  it('is refused for a debt from refunds (a receivable below zero) and for an open dispute, each with its sentence', async () => {
    const debtor = await registerPerson(t.app);
    await t.app.db.transaction(async (tx) => {
      await transfer(tx, {
        lines: [
          { accountId: await receivableAccountId(tx, debtor.id), amountMinor: -750 },
          { accountId: await systemAccountId(tx, clearingAccountCode('sandbox')), amountMinor: 750 },
        ],
        kind: 'adjustment',
        reason: 'test: a refund of withdrawn earnings',
      });
    });
    const debt = await refused(debtor);
    expect(debt.message).toBe(
      'You owe €7.50 from refunds of works you had already been paid for. Your next earnings or a deposit settle it; then delete your account.',
    );
    expect(debt.errors.receivable).toEqual([debt.message]);

    const disputed = await registerPerson(t.app);
    const [deposit] = await t.app.db
      .insert(deposits)
      .values({
        userId: disputed.id,
        amountMinor: 3000,
        currency: 'EUR',
        currencyAmountMinor: 3000,
        provider: 'stripe',
        paymentMethod: 'card',
        status: 'success',
      })
      .returning({ id: deposits.id });
    await t.app.db.insert(disputes).values({
      provider: 'stripe',
      providerDisputeId: `dp_${disputed.id}`,
      depositId: deposit!.id,
      userId: disputed.id,
      amountMinor: 3000,
      fromBalanceMinor: 3000,
      fromReceivableMinor: 0,
    });
    const dispute = await refused(disputed);
    expect(dispute.message).toBe('A card payment of €30.00 of yours is disputed with your bank. Once the dispute is closed, delete your account.');
    expect(dispute.errors.dispute).toEqual([dispute.message]);
  });

  it('names every reason at once: a balance and available earnings', async () => {
    const both = await registerPerson(t.app);
    await fund(t.app, both.id, 500);
    const seller = await registerPerson(t.app);
    const productId = await prompt(seller.id, 'Two reasons', 1000);
    await fund(t.app, both.id, 1000);
    expect((await both.client.post('/api/purchase/prompt', { prompt_id: productId })).statusCode).toBe(200);
    await fund(t.app, seller.id, 100);
    await releaseDueEarnings(t.app.db, { clearingDays: 0 });
    const answer = await refused(seller);
    expect(Object.keys(answer.errors).sort()).toEqual(['balance', 'earnings_available']);
    expect(answer.message).toBe(`${answer.errors.balance![0]} ${answer.errors.earnings_available![0]}`);
  });
});
