import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { balanceMinor, fund, pendingMinor, revenueMinor } from '../../../test/commerce';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { orderItems, products } from '../../db/schema';
import { setSetting } from '../../lib/settings';
import { checkLedger } from '../ledger';

/**
 * Issue 30: the money model. Each sold line stores its split at sale time (seller_minor,
 * commission_minor), and a refund gives back exactly those numbers, whatever the settings say later.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await setSetting(t.app.db, 'is_reg_enabled', true);
});
afterAll(() => t.close());

const exact = { unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 };
let serial = 0;

async function prompt(authorId: number, priceMinor: number) {
  serial++;
  const [row] = await t.app.db
    .insert(products)
    .values({ slug: `split-prompt-${serial}-${authorId}`, title: `Split prompt ${serial}`, productType: 'prompt', promptText: 'A fox', authorId, priceMinor })
    .returning({ id: products.id });
  return row!.id;
}

async function setCommerce(body: Record<string, number>) {
  const staff = await registerStaff(t.app);
  const res = await staff.client.request('PATCH', '/api/admin/settings', { body });
  expect(res.statusCode).toBe(200);
}

async function buy(productId: number, minor: number) {
  const buyer = await registerPerson(t.app);
  await fund(t.app, buyer.id, minor);
  const res = await buyer.client.post('/api/purchase/prompt', { prompt_id: productId });
  expect(res.statusCode).toBe(200);
  return { buyer, orderId: res.json().payload.order.id as number };
}

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
