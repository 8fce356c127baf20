import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { balanceMinor, buyPromptAsNewBuyer, listedPrompt, pendingMinor, revenueMinor } from '../../../test/commerce';
import { useTestApp } from '../../../test/test-app';
import { orderItems } from '../../db/schema';
import { checkLedger } from '../ledger';

/**
 * Issue 30: the money model. Each sold line stores its split at sale time (seller_minor,
 * commission_minor), and a refund gives back exactly those numbers, whatever the settings say later.
 */
const t = useTestApp({ registration: true });

const exact = { unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 };
const prompt = (authorId: number, priceMinor: number) => listedPrompt(t.app, authorId, priceMinor);

async function setCommerce(body: Record<string, number>) {
  const staff = await registerStaff(t.app);
  const res = await staff.client.request('PATCH', '/api/admin/settings', { body });
  expect(res.statusCode).toBe(200);
}

const buy = (productId: number, minor: number) => buyPromptAsNewBuyer(t.app, productId, minor);

async function refund(buyer: Awaited<ReturnType<typeof buy>>['buyer'], orderId: number) {
  const asked = await buyer.client.post(`/api/orders/${orderId}/refund-request`, { reason: 'broken_file', message: 'It does not open.' });
  expect(asked.statusCode).toBe(200);
  const staff = await registerStaff(t.app);
  const done = await staff.client.post(`/api/admin/refund-requests/${asked.json().payload.id}/resolve`, { decision: 'refund' });
  expect(done.statusCode).toBe(200);
}

describe('issue 30: the split is stored at sale time', () => {
  it('an order line keeps what its seller earned and the commission; a refund gives back exactly those after the commission changed', async () => {
    await setCommerce({ commission_percent: 20 });
    const creator = await registerPerson(t.app);
    const productId = await prompt(creator.id, 1005);
    const { buyer, orderId } = await buy(productId, 1005);
    const [line] = await t.app.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect({ seller: line!.sellerMinor, commission: line!.commissionMinor }).toEqual({ seller: 804, commission: 201 });
    expect(await pendingMinor(t.app, creator.id)).toBe(804);

    // The setting changes after the sale: the refund still gives back the sale's own numbers.
    await setCommerce({ commission_percent: 35 });
    const revenueBefore = await revenueMinor(t.app);
    await refund(buyer, orderId);
    expect(await balanceMinor(t.app, buyer.id)).toBe(1005);
    expect(await pendingMinor(t.app, creator.id)).toBe(0);
    expect(revenueBefore - (await revenueMinor(t.app))).toBe(201);
    expect(await checkLedger(t.app.db)).toEqual(exact);
    await setCommerce({ commission_percent: 20 });
  });
});
