import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { sellPrompt } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { mailOutbox, products } from '../../db/schema';

/**
 * Issue 31 item 8: a sale, a refund request and a refund's decision ring the bell of the party they
 * concern, with the params the web words them with; each user reads and changes only their own
 * preferences; a kind turned off stops the bell, the e-mail, or both.
 */
const t = useTestApp({ registration: true });

type Bell = { kind: string; text: string; link: string | null; params: Record<string, unknown> | null }[];
const bellOf = async (client: TestClient) => (await client.get('/api/notifications')).json().payload as Bell;
/** Mails to an address with this subject, after the jobs due have run (a receipt is sent by a job). */
async function mailsTo(email: string, subject: string) {
  await t.app.jobs.runDue();
  return t.app.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email), eq(mailOutbox.subject, subject)));
}
const preferences = (client: TestClient) => client.get('/api/user/notification-preferences');
const setPreferences = (client: TestClient, list: unknown) => client.put('/api/user/notification-preferences', { preferences: list });
const titleOf = async (productId: number) => (await t.app.db.select({ title: products.title }).from(products).where(eq(products.id, productId)))[0]!.title;
/** The product of an order the buyer placed with sellPrompt (its only item). */
async function productOfOrder(client: TestClient, orderId: number) {
  const history = (await client.get('/api/purchase/history')).json().payload as { id: number; items: { info: { id: number } }[] }[];
  return history.find((o) => o.id === orderId)!.items[0]!.info.id;
}
const askRefund = async (client: TestClient, orderId: number) => {
  const res = await client.post(`/api/orders/${orderId}/refund-request`, { reason: 'broken_file', message: 'The file does not open.' });
  expect(res.statusCode).toBe(200);
  // The request's id, whether the answer carries it as `refund_request` or in the envelope's payload (issue 31 item 13).
  const body = res.json();
  return (body.payload ?? body.refund_request).id as number;
};

describe('notification preferences', () => {
  it('a sale rings the creator, a refund request the creator, a decision the buyer; each notice carries its title and amount', async () => {
    const creator = await registerSeller(t.app);
    const buyer = await registerPerson(t.app);
    const staff = await registerStaff(t.app);
    const orderId = await sellPrompt(t.app, buyer, creator.id, 2500);
    const productId = await productOfOrder(buyer.client, orderId);
    const title = await titleOf(productId);

    const sale = (await bellOf(creator.client))[0];
    expect(sale).toMatchObject({ kind: 'sale_made', link: '/dashboard/sales', params: { title, count: 1, amount_minor: 2500 } });
    expect(sale!.text).toBe(`You sold "${title}" (25.00 €).`);
    // The buyer's bell holds no sale notice.
    expect((await bellOf(buyer.client)).map((n) => n.kind)).not.toContain('sale_made');

    const requestId = await askRefund(buyer.client, orderId);
    expect((await bellOf(creator.client))[0]).toMatchObject({
      kind: 'refund_requested',
      link: '/dashboard/refunds',
      params: { title, amount_minor: 2500, status: 'open' },
    });
    expect((await bellOf(buyer.client)).map((n) => n.kind)).not.toContain('refund_requested');

    expect((await staff.client.post(`/api/admin/refund-requests/${requestId}/resolve`, { decision: 'reject', note: 'It opens.' })).statusCode).toBe(200);
    expect((await bellOf(buyer.client))[0]).toMatchObject({
      kind: 'refund_status',
      link: '/dashboard/orders',
      params: { title, amount_minor: 2500, status: 'rejected' },
    });
    expect((await bellOf(creator.client))[0]).toMatchObject({ kind: 'refund_status', params: { status: 'rejected' } });
  });

  it('every kind is on by default; a user changes only their own, and a second user neither sees nor changes them', async () => {
    const first = await registerPerson(t.app);
    const second = await registerPerson(t.app);
    const allOn = [
      { kind: 'sale_made', bell: true, email: true },
      { kind: 'refund_requested', bell: true, email: true },
      { kind: 'refund_status', bell: true, email: true },
      { kind: 'product_updated', bell: true, email: true },
    ];
    expect((await preferences(first.client)).json()).toEqual({ status: 'OK', payload: { preferences: allOn } });

    const saved = await setPreferences(first.client, [{ kind: 'sale_made', bell: false, email: true }]);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().payload.preferences[0]).toEqual({ kind: 'sale_made', bell: false, email: true });
    // The second user still sees the defaults, and their own change leaves the first user's as it was.
    expect((await preferences(second.client)).json().payload.preferences).toEqual(allOn);
    await setPreferences(second.client, [{ kind: 'sale_made', bell: true, email: false }]);
    expect((await preferences(first.client)).json().payload.preferences[0]).toEqual({ kind: 'sale_made', bell: false, email: true });
    expect((await preferences(second.client)).json().payload.preferences[0]).toEqual({ kind: 'sale_made', bell: true, email: false });

    // A guest may do neither; bad input is a 422 naming the field, and nothing is written.
    expect((await preferences(new TestClient(t.app))).statusCode).toBe(401);
    expect((await setPreferences(new TestClient(t.app), allOn)).statusCode).toBe(401);
    const unknown = await setPreferences(first.client, [{ kind: 'new_message', bell: false, email: false }]);
    expect(unknown.statusCode).toBe(422);
    expect(JSON.stringify(unknown.json().errors)).toContain('Kind must be one of: sale_made, refund_requested, refund_status, product_updated.');
    const twice = await setPreferences(first.client, [
      { kind: 'refund_status', bell: false, email: false },
      { kind: 'refund_status', bell: true, email: true },
    ]);
    expect(twice.statusCode).toBe(422);
    expect(JSON.stringify(twice.json().errors)).toContain('Each kind may appear once.');
    expect((await setPreferences(first.client, [{ kind: 'refund_status', bell: 'no', email: true }])).statusCode).toBe(422);
    expect((await preferences(first.client)).json().payload.preferences[2]).toEqual({ kind: 'refund_status', bell: true, email: true });
  });

  it('a kind turned off for the bell rings no bell but still mails; turned off for e-mail, it mails nothing but rings', async () => {
    const creator = await registerSeller(t.app);
    const buyer = await registerPerson(t.app);
    expect(
      (
        await setPreferences(creator.client, [
          { kind: 'sale_made', bell: false, email: true },
          { kind: 'refund_requested', bell: true, email: false },
        ])
      ).statusCode,
    ).toBe(200);
    const orderId = await sellPrompt(t.app, buyer, creator.id, 1200);
    expect((await bellOf(creator.client)).map((n) => n.kind)).not.toContain('sale_made');
    expect(await mailsTo(creator.email, 'You made a sale')).toHaveLength(1);

    const requestId = await askRefund(buyer.client, orderId);
    expect((await bellOf(creator.client))[0]).toMatchObject({ kind: 'refund_requested' });
    expect(await mailsTo(creator.email, `Refund request #${requestId}`)).toHaveLength(0);

    // Both off: a second sale neither rings nor mails; the buyer's own receipt is not affected.
    await setPreferences(creator.client, [{ kind: 'sale_made', bell: false, email: false }]);
    const second = await registerPerson(t.app);
    const secondOrder = await sellPrompt(t.app, second, creator.id, 1200);
    expect((await bellOf(creator.client)).map((n) => n.kind)).not.toContain('sale_made');
    expect(await mailsTo(creator.email, 'You made a sale')).toHaveLength(1);
    expect(await mailsTo(second.email, `Your Atelier order #${secondOrder}`)).toHaveLength(1);

    // The buyer turns refund decisions off for the bell: the creator's refund reaches them by e-mail only.
    await setPreferences(buyer.client, [{ kind: 'refund_status', bell: false, email: true }]);
    expect((await creator.client.post(`/api/refund-requests/${requestId}/accept`)).statusCode).toBe(200);
    expect((await bellOf(buyer.client)).map((n) => n.kind)).not.toContain('refund_status');
    expect(await mailsTo(buyer.email, `Refund request #${requestId}`)).toHaveLength(1);
    // The creator, who left decisions on, hears of it.
    expect((await bellOf(creator.client))[0]).toMatchObject({ kind: 'refund_status', params: { status: 'refunded' } });
  });
});
