import { describe, expect, it } from 'vitest';
import { registerSeller, registerStaff } from '../../../test/accounts';
import { availableMinor, balanceMinor, buyPromptAsNewBuyer, listedPrompt } from '../../../test/commerce';
import { payoutContact } from '../../../test/payouts';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { checkLedger, releaseDueEarnings } from '../ledger';

/**
 * Issue 30, finding 1: an open refund request holds its line. A creator can no longer withdraw money a
 * buyer asked back; the Earnings tab shows the hold, and after a refund of withdrawn money, the debt.
 */
const t = useTestApp({ registration: true });

const exact = { unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 };
const sepa = { ...payoutContact, method: 'sepa', account_number: 'DE89370400440532013000', recipient_full_name: 'Ines Duarte' };
async function soldPrompt(creatorId: number, priceMinor: number) {
  const sold = await buyPromptAsNewBuyer(t.app, await listedPrompt(t.app, creatorId, priceMinor), priceMinor);
  // Past its clearing period: the creator's share is available.
  await releaseDueEarnings(t.app.db, { clearingDays: 0 });
  return sold;
}

const ask = async (client: TestClient, orderId: number) => {
  const res = await client.post(`/api/orders/${orderId}/refund-request`, { reason: 'broken_file', message: 'It does not open.' });
  expect(res.statusCode).toBe(200);
  return res.json().payload.id as number;
};
const earnings = async (client: TestClient) => (await client.get('/api/earnings')).json().payload;

describe('issue 30: an open refund request holds its line', () => {
  it('finding 1: the share asked back cannot be withdrawn; refunded, it goes back to the buyer and the creator owes nothing', async () => {
    const creator = await registerSeller(t.app);
    const staff = await registerStaff(t.app);
    const { buyer, orderId } = await soldPrompt(creator.id, 1200);
    expect(await availableMinor(t.app, creator.id)).toBe(960);

    const id = await ask(buyer.client, orderId);
    const held = await earnings(creator.client);
    expect(held.available.amount_minor).toBe(0);
    expect(held.held.amount_minor).toBe(960);
    const refused = await creator.client.post('/api/earnings/withdraw', { ...sepa, amount: 9.6 });
    expect(refused.statusCode).toBe(422);

    expect((await staff.client.post(`/api/admin/refund-requests/${id}/resolve`, { decision: 'refund' })).statusCode).toBe(200);
    expect(await balanceMinor(t.app, buyer.id)).toBe(1200);
    const after = await earnings(creator.client);
    expect([after.available.amount_minor, after.held.amount_minor, after.owed.amount_minor]).toEqual([0, 0, 0]);
    const statementRes = await creator.client.get('/api/balance/statement');
    expect(statementRes.json()).toMatchObject({ status: 'OK' });
    const statement = statementRes.json().payload as { balance_after_minor: number }[];
    expect(statement.every((l) => l.balance_after_minor >= 0)).toBe(true);
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });

  it('a rejected request gives the hold back to available', async () => {
    const creator = await registerSeller(t.app);
    const staff = await registerStaff(t.app);
    const { buyer, orderId } = await soldPrompt(creator.id, 1000);
    const id = await ask(buyer.client, orderId);
    expect((await earnings(creator.client)).held.amount_minor).toBe(800);
    expect((await staff.client.post(`/api/admin/refund-requests/${id}/resolve`, { decision: 'reject' })).statusCode).toBe(200);
    const after = await earnings(creator.client);
    expect([after.available.amount_minor, after.held.amount_minor]).toEqual([800, 0]);
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });

  it('the Earnings tab shows a debt after a refund of money already withdrawn', async () => {
    const creator = await registerSeller(t.app);
    const staff = await registerStaff(t.app);
    const { buyer, orderId } = await soldPrompt(creator.id, 2000);
    const withdrawn = await creator.client.post('/api/earnings/withdraw', { ...sepa, amount: 16 });
    expect(withdrawn.statusCode).toBe(200);
    const id = await ask(buyer.client, orderId);
    expect((await staff.client.post(`/api/admin/refund-requests/${id}/resolve`, { decision: 'refund' })).statusCode).toBe(200);
    expect((await earnings(creator.client)).owed.amount_minor).toBe(1600);
  });
});
