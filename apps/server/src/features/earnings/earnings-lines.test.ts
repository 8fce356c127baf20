import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { availableMinor, buyPromptAsNewBuyer, listedPrompt, pendingMinor } from '../../../test/commerce';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { orderItems, orders } from '../../db/schema';
import { checkLedger, releaseDueEarnings } from '../ledger';

/**
 * Issue 30: earnings tracked per sold line. A refund cancels its own line; the release job releases
 * only lines still pending, each by its own amount; a new clearing period applies to pending lines at once.
 */
const t = useTestApp({ registration: true });

const DAY = 86_400_000;
const exact = { unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 };
const prompt = (authorId: number, priceMinor: number) => listedPrompt(t.app, authorId, priceMinor);

const buy = (productId: number, minor: number) => buyPromptAsNewBuyer(t.app, productId, minor);

async function refund(buyer: { client: TestClient }, orderId: number) {
  const asked = await buyer.client.post(`/api/orders/${orderId}/refund-request`, { reason: 'broken_file', message: 'It does not open.' });
  expect(asked.statusCode).toBe(200);
  const staff = await registerStaff(t.app);
  const done = await staff.client.post(`/api/admin/refund-requests/${asked.json().payload.id}/resolve`, { decision: 'refund' });
  expect(done.statusCode).toBe(200);
}

async function setClearingDays(days: number) {
  const staff = await registerStaff(t.app);
  const res = await staff.client.request('PATCH', '/api/admin/settings', { body: { earnings_clearing_days: days } });
  expect(res.statusCode).toBe(200);
}

describe('issue 30: earnings per sold line', () => {
  it('finding 3: a refunded line is never released, and another sale’s money does not skip its clearing period', async () => {
    await setClearingDays(7);
    const creator = await registerPerson(t.app);
    const first = await buy(await prompt(creator.id, 1000), 1000);
    const second = await buy(await prompt(creator.id, 1000), 1000);
    expect(await pendingMinor(t.app, creator.id)).toBe(1600);
    await refund(first.buyer, first.orderId);
    expect(await pendingMinor(t.app, creator.id)).toBe(800);

    // The first sale's clearing period has passed, the second's has not (+1 ms: the database keeps microseconds).
    const [sold] = await t.app.db.select({ at: orders.createdAt }).from(orders).where(eq(orders.id, first.orderId));
    await releaseDueEarnings(t.app.db, { clearingDays: 7, now: new Date(sold!.at.getTime() + 7 * DAY + 1) });
    expect(await availableMinor(t.app, creator.id)).toBe(0);
    expect(await pendingMinor(t.app, creator.id)).toBe(800);
    const states = async (orderId: number) =>
      (await t.app.db.select({ state: orderItems.earningsState }).from(orderItems).where(eq(orderItems.orderId, orderId))).map((r) => r.state);
    expect(await states(first.orderId)).toEqual(['refunded']);
    expect(await states(second.orderId)).toEqual(['pending']);

    // Its own period over, the second line is released by its own amount.
    const [later] = await t.app.db.select({ at: orders.createdAt }).from(orders).where(eq(orders.id, second.orderId));
    await releaseDueEarnings(t.app.db, { clearingDays: 7, now: new Date(later!.at.getTime() + 7 * DAY + 1) });
    expect(await availableMinor(t.app, creator.id)).toBe(800);
    expect(await pendingMinor(t.app, creator.id)).toBe(0);
    expect(await states(second.orderId)).toEqual(['released']);
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });

  it('saving a clearing period of 0 starts a release run: pending lines are available at once', async () => {
    await setClearingDays(7);
    const creator = await registerPerson(t.app);
    await buy(await prompt(creator.id, 500), 500);
    expect(await pendingMinor(t.app, creator.id)).toBe(400);
    // Whatever was already due has run; the next scheduled run is minutes away.
    await t.app.jobs.runDue();
    expect(await pendingMinor(t.app, creator.id)).toBe(400);

    await setClearingDays(0);
    await t.app.jobs.runDue();
    expect(await pendingMinor(t.app, creator.id)).toBe(0);
    expect(await availableMinor(t.app, creator.id)).toBe(400);
    await setClearingDays(7);
  });
});
