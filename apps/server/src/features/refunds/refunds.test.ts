import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { lastMailTo, registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { chatPair, multipart, sendChat, sendChatForm, testPng } from '../../../test/chat';
import { availableMinor, balanceMinor, buyPromptAsNewBuyer, fund, listedPrompt, pendingMinor, revenueMinor } from '../../../test/commerce';
import { payoutContact } from '../../../test/payouts';
import { TestClient, useTestApp } from '../../../test/test-app';
import { auditLog, ledgerAccounts, orders, products } from '../../db/schema';
import { checkLedger, releaseDueEarnings } from '../ledger';

/**
 * Buyer protection (issue 19): refund requests of a product, a pack item and a chat unlock, each
 * leaving the ledger exact; a refund after the creator withdrew everything makes a receivable, which
 * blocks withdrawals until the next sale pays it off; every call's 4xx; strangers see and do nothing.
 */
const t = useTestApp({ registration: true });

const exact = { unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 };

/** A published prompt by `authorId` (its download is its text, so no file is needed). */
const prompt = (authorId: number, priceMinor: number, extra: Partial<typeof products.$inferInsert> = {}) =>
  listedPrompt(t.app, authorId, priceMinor, { title: `Refund prompt ${Date.now()}`, ...extra });

/** A buyer with `minor` cents who bought the prompt; the order's id. */
const boughtPrompt = (productId: number, minor: number) => buyPromptAsNewBuyer(t.app, productId, minor);

const ask = (client: TestClient, orderId: number, body: Record<string, unknown>) => client.post(`/api/orders/${orderId}/refund-request`, body);
const complaint = { reason: 'broken_file', message: 'The file does not open.' };
const historyOf = async (client: TestClient) =>
  (await client.get('/api/purchase/history')).json().payload as {
    id: number;
    status: string;
    items: { info: { id: number }; refund_status: string | null }[];
  }[];

describe('refund requests', () => {
  it('a product: asked, answered by the creator, refunded by staff; the ledger is exact, the download 410, the history Refunded', async () => {
    const creator = await registerSeller(t.app);
    const staff = await registerStaff(t.app);
    const stranger = await registerPerson(t.app);
    const productId = await prompt(creator.id, 1000);
    const revenueBefore = await revenueMinor(t.app);
    const { buyer, orderId } = await boughtPrompt(productId, 1000);
    expect(await pendingMinor(t.app, creator.id)).toBe(800);
    expect((await buyer.client.get(`/api/user/media/download?id=${orderId}&product_id=${productId}`)).statusCode).toBe(200);

    // 4xx: a guest, a stranger's order, bad input, both subjects, a product not in the order.
    expect((await ask(new TestClient(t.app), orderId, complaint)).statusCode).toBe(401);
    const foreign = await ask(stranger.client, orderId, complaint);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('This order was not found in your orders.');
    const bad = await ask(buyer.client, orderId, { reason: 'changed_my_mind', message: '' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['message', 'reason']);
    expect((await ask(buyer.client, orderId, { ...complaint, product_id: productId, unlock_message_id: 1 })).json().errors.unlock_message_id[0]).toBe(
      'Please name either a product or an unlocked image, not both.',
    );
    expect((await ask(buyer.client, orderId, { ...complaint, product_id: productId + 99_999 })).json().errors.product_id[0]).toBe(
      'This product is not in this order.',
    );

    const created = await ask(buyer.client, orderId, complaint);
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ status: 'OK', payload: { id: expect.any(Number), status: 'open' } });
    const id = created.json().payload.id as number;
    // One open request per item.
    const twice = await ask(buyer.client, orderId, { ...complaint, product_id: productId });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('A refund request for this item is already open.');

    // The creator is told and sees it; so does the buyer; a stranger sees nothing and can do nothing.
    const bell = (await creator.client.get('/api/notifications')).json().payload;
    expect(bell[0]).toMatchObject({ kind: 'refund_requested', link: '/dashboard/refunds' });
    expect((await lastMailTo(t.app, creator.email))?.subject).toBe(`Refund request #${id}`);
    const mine = (await creator.client.get('/api/refund-requests')).json().payload;
    expect(mine).toEqual([expect.objectContaining({ id, status: 'open', role: 'creator', order_id: orderId, product_id: productId, reason: 'broken_file' })]);
    expect((await buyer.client.get('/api/refund-requests')).json().payload[0]).toMatchObject({ id, role: 'buyer', amount: { amount_minor: 1000 } });
    expect((await stranger.client.get('/api/refund-requests')).json().payload).toEqual([]);
    expect((await stranger.client.post(`/api/refund-requests/${id}/respond`, { message: 'No' })).statusCode).toBe(404);
    expect((await stranger.client.post(`/api/refund-requests/${id}/accept`)).statusCode).toBe(404);
    expect((await stranger.client.get('/api/admin/refund-requests')).statusCode).toBe(403);
    expect((await stranger.client.post(`/api/admin/refund-requests/${id}/resolve`, { decision: 'refund' })).statusCode).toBe(403);
    // The buyer cannot answer or accept their own request.
    expect((await buyer.client.post(`/api/refund-requests/${id}/accept`)).statusCode).toBe(403);
    expect((await buyer.client.post(`/api/refund-requests/${id}/respond`, { message: 'Me' })).statusCode).toBe(403);

    // Guests get 401 everywhere; a malformed or unknown id is a 422 or a 404.
    const guest = new TestClient(t.app);
    expect((await guest.get('/api/refund-requests')).statusCode).toBe(401);
    expect((await guest.post(`/api/refund-requests/${id}/respond`, { message: 'Hi' })).statusCode).toBe(401);
    expect((await guest.post(`/api/refund-requests/${id}/accept`)).statusCode).toBe(401);
    expect((await guest.get('/api/admin/refund-requests')).statusCode).toBe(401);
    expect((await creator.client.post('/api/refund-requests/abc/respond', { message: 'Hi' })).statusCode).toBe(422);
    expect((await creator.client.post('/api/refund-requests/999999999/accept')).statusCode).toBe(404);
    expect((await creator.client.get('/api/refund-requests?status=lost')).statusCode).toBe(422);
    expect((await ask(buyer.client, 999_999_999, complaint)).statusCode).toBe(404);

    // The creator answers once.
    expect((await creator.client.post(`/api/refund-requests/${id}/respond`, { message: '' })).statusCode).toBe(422);
    const answered = await creator.client.post(`/api/refund-requests/${id}/respond`, { message: 'It opens for me.' });
    expect(answered.statusCode).toBe(200);
    expect(answered.json().payload).toMatchObject({ status: 'responded', messages: [{ from: 'buyer' }, { from: 'creator', text: 'It opens for me.' }] });
    expect((await creator.client.post(`/api/refund-requests/${id}/respond`, { message: 'Again' })).statusCode).toBe(409);
    expect((await buyer.client.get('/api/notifications')).json().payload[0]).toMatchObject({ kind: 'refund_status' });

    // Staff see it in the open queue, with both parties' history.
    const queue = (await staff.client.get('/api/admin/refund-requests?status=open')).json().payload;
    expect(queue.find((r: { id: number }) => r.id === id)).toMatchObject({
      status: 'responded',
      history: { buyer: { requests: 1, refunded: 0 }, creator: { requests: 1, refunded: 0 } },
    });
    expect((await staff.client.get('/api/admin/refund-requests?status=closed')).statusCode).toBe(422);
    expect((await staff.client.post(`/api/admin/refund-requests/${id}/resolve`, { decision: 'maybe' })).statusCode).toBe(422);
    expect((await staff.client.post('/api/admin/refund-requests/999999999/resolve', { decision: 'refund' })).statusCode).toBe(404);

    const resolved = await staff.client.post(`/api/admin/refund-requests/${id}/resolve`, { decision: 'refund', note: 'The file was broken.' });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().payload).toMatchObject({
      status: 'refunded',
      messages: [{ from: 'buyer' }, { from: 'creator' }, { from: 'staff', text: 'The file was broken.' }],
    });
    expect((await staff.client.post(`/api/admin/refund-requests/${id}/resolve`, { decision: 'reject' })).statusCode).toBe(409);

    // The money: the buyer's balance back, the creator's pending share and the commission taken back.
    expect(await balanceMinor(t.app, buyer.id)).toBe(1000);
    expect(await pendingMinor(t.app, creator.id)).toBe(0);
    expect(await revenueMinor(t.app)).toBe(revenueBefore);
    expect(await checkLedger(t.app.db)).toEqual(exact);
    // The file is gone for the buyer; the history says Refunded; no review; both told; audited.
    const download = await buyer.client.get(`/api/user/media/download?id=${orderId}&product_id=${productId}`);
    expect(download.statusCode).toBe(410);
    expect(download.json().message).toBe('This item was refunded: its download is no longer available.');
    const order = (await historyOf(buyer.client)).find((o) => o.id === orderId)!;
    expect(order.status).toBe('Refunded');
    expect(order.items[0]!.refund_status).toBe('Refunded');
    // Issue 31: the statement's refund line names the work.
    const [work] = await t.app.db.select({ title: products.title }).from(products).where(eq(products.id, productId));
    const statement = (await buyer.client.get('/api/balance/statement')).json().payload as { kind: string; description: string }[];
    expect(statement.find((l) => l.kind === 'refund')?.description).toBe(`Refund: ${work!.title}`);
    const review = await buyer.client.post(`/api/products/${productId}/reviews`, { rating: 5 });
    expect(review.statusCode).toBe(403);
    expect((await buyer.client.get('/api/notifications')).json().payload[0].text).toContain('was refunded');
    expect((await creator.client.get('/api/notifications')).json().payload[0].text).toContain('was refunded');
    expect((await lastMailTo(t.app, buyer.email))?.text).toContain('10.00 € is back in your Atelier balance.');
    const audit = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, 'refund_request'), eq(auditLog.subjectId, id)));
    expect(audit.map((a) => [a.action, a.staffId])).toEqual([['refund_request.refund', staff.id]]);
    expect((await staff.client.get('/api/admin/refund-requests?status=refunded')).json().payload.map((r: { id: number }) => r.id)).toContain(id);
    // Refunded once: asking again is a 409.
    expect((await ask(buyer.client, orderId, complaint)).statusCode).toBe(409);
  });

  it('staff may reject: no money moves and the buyer keeps the file; past 14 days it is a 422', async () => {
    const creator = await registerSeller(t.app);
    const staff = await registerStaff(t.app);
    const productId = await prompt(creator.id, 500);
    const { buyer, orderId } = await boughtPrompt(productId, 500);
    const id = (await ask(buyer.client, orderId, complaint)).json().payload.id;
    const rejected = await staff.client.post(`/api/admin/refund-requests/${id}/resolve`, { decision: 'reject', note: 'It opens fine.' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().payload.status).toBe('rejected');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect((await buyer.client.get(`/api/user/media/download?id=${orderId}&product_id=${productId}`)).statusCode).toBe(200);
    expect((await creator.client.post(`/api/refund-requests/${id}/accept`)).statusCode).toBe(409);

    await t.app.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 15 * 86_400_000) })
      .where(eq(orders.id, orderId));
    const late = await ask(buyer.client, orderId, complaint);
    expect(late.statusCode).toBe(422);
    expect(late.json().errors.product_id[0]).toBe('Refunds can be requested within 14 days of the purchase; this one is older.');
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });

  it("a pack item: the creator accepts; the item's share as the pack split it comes back, the other item stays", async () => {
    const staff = await registerStaff(t.app);
    const a = await registerPerson(t.app);
    const b = await registerPerson(t.app);
    const first = await prompt(a.id, 2400);
    const second = await prompt(b.id, 1900);
    const pack = (await staff.client.post('/api/admin/packs', { title: 'Two prompts', price: 50, product_ids: [first, second], status: 'published' })).json()
      .payload;
    const buyer = await registerPerson(t.app);
    await fund(t.app, buyer.id, 5000);
    const sold = await buyer.client.post('/api/purchase/pack', { pack_id: pack.id });
    expect(sold.statusCode).toBe(200);
    const orderId = sold.json().payload.order.id;
    // Shares 2791 and 2209; commission 20 %: 558 and 442.
    expect(await pendingMinor(t.app, a.id)).toBe(2791 - 558);
    const revenueBefore = await revenueMinor(t.app);

    expect((await ask(buyer.client, orderId, complaint)).json().errors.product_id[0]).toBe('This order has several items: please choose the one to refund.');
    const id = (await ask(buyer.client, orderId, { ...complaint, product_id: first })).json().payload.id;
    // Only the item's creator may accept it.
    expect((await b.client.post(`/api/refund-requests/${id}/accept`)).statusCode).toBe(404);
    const accepted = await a.client.post(`/api/refund-requests/${id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().payload.status).toBe('refunded');

    expect(await balanceMinor(t.app, buyer.id)).toBe(2791);
    expect(await pendingMinor(t.app, a.id)).toBe(0);
    expect(await pendingMinor(t.app, b.id)).toBe(2209 - 442);
    expect(revenueBefore - (await revenueMinor(t.app))).toBe(558);
    expect(await checkLedger(t.app.db)).toEqual(exact);
    expect((await buyer.client.get(`/api/user/media/download?id=${orderId}&product_id=${first}`)).statusCode).toBe(410);
    expect((await buyer.client.get(`/api/user/media/download?id=${orderId}&product_id=${second}`)).statusCode).toBe(200);
    const order = (await historyOf(buyer.client)).find((o) => o.id === orderId)!;
    expect(order.status).toBe('Success');
    expect(order.items.map((i) => i.refund_status)).toEqual(['Refunded', null]);
  });

  it('a chat unlock: refunded by staff, the original answers 410 to the buyer and still opens for the creator', async () => {
    const staff = await registerStaff(t.app);
    const { buyer, creator, chatId } = await chatPair(t.app);
    expect((await sendChat(creator.client, chatId, { type: 'price_proposal', amount: 20 })).statusCode).toBe(200);
    expect((await sendChat(buyer.client, chatId, { action: 'accept_price' })).statusCode).toBe(200);
    const locked = await sendChatForm(creator.client, chatId, multipart({ is_locked: '1' }, { name: 'fox.png', type: 'image/png', data: await testPng() }));
    const imageId = locked.json().payload.id as number;
    await fund(t.app, buyer.id, 2000);
    expect((await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: imageId })).statusCode).toBe(200);
    expect(await pendingMinor(t.app, creator.id)).toBe(1600);
    const original = `/api/chat/${chatId}/messages/${imageId}/attachment`;
    expect((await buyer.client.get(original)).statusCode).toBe(200);

    const stranger = await registerPerson(t.app);
    expect((await ask(stranger.client, chatId, { ...complaint, unlock_message_id: imageId })).statusCode).toBe(404);
    // The creator cannot ask for a refund of their own image.
    expect((await ask(creator.client, chatId, { ...complaint, unlock_message_id: imageId })).statusCode).toBe(404);
    const created = await ask(buyer.client, chatId, { reason: 'not_as_described', message: 'Not the fox we agreed.', unlock_message_id: imageId });
    expect(created.statusCode).toBe(200);
    const id = created.json().payload.id;
    expect((await staff.client.get('/api/admin/refund-requests?status=open')).json().payload.find((r: { id: number }) => r.id === id)).toMatchObject({
      unlock_message_id: imageId,
      chat_id: chatId,
      file_url: `/api/admin/refund-requests/${id}/file`,
    });
    expect((await staff.client.get(`/api/admin/refund-requests/${id}/file`)).statusCode).toBe(200);
    expect((await staff.client.post(`/api/admin/refund-requests/${id}/resolve`, { decision: 'refund', note: '' })).statusCode).toBe(200);

    expect(await balanceMinor(t.app, buyer.id)).toBe(2000);
    expect(await pendingMinor(t.app, creator.id)).toBe(0);
    expect(await checkLedger(t.app.db)).toEqual(exact);
    expect((await buyer.client.get(original)).statusCode).toBe(410);
    expect((await creator.client.get(original)).statusCode).toBe(200);
  });

  it('a refund after the creator withdrew everything makes a receivable: no withdrawal until the next sale pays it off', async () => {
    const creator = await registerSeller(t.app);
    const staff = await registerStaff(t.app);
    const first = await prompt(creator.id, 2000);
    const { buyer, orderId } = await boughtPrompt(first, 2000);
    await releaseDueEarnings(t.app.db, { clearingDays: 0 });
    expect(await availableMinor(t.app, creator.id)).toBe(1600);
    const sepa = { ...payoutContact, method: 'sepa', amount: 16, account_number: 'DE89370400440532013000', recipient_full_name: 'Ines Duarte' };
    const withdrawn = await creator.client.post('/api/earnings/withdraw', sepa);
    expect(withdrawn.statusCode).toBe(200);
    const payoutId = withdrawn.json().payload.withdrawal.id;
    expect((await staff.client.post(`/api/admin/payouts/${payoutId}/complete`, { outcome: 'paid', reference: `BANK-${payoutId}` })).statusCode).toBe(200);
    expect(await availableMinor(t.app, creator.id)).toBe(0);

    const id = (await ask(buyer.client, orderId, complaint)).json().payload.id;
    expect((await staff.client.post(`/api/admin/refund-requests/${id}/resolve`, { decision: 'refund' })).statusCode).toBe(200);
    expect(await balanceMinor(t.app, buyer.id)).toBe(2000);
    const receivable = async () =>
      Number(
        (
          await t.app.db
            .select()
            .from(ledgerAccounts)
            .where(eq(ledgerAccounts.code, `receivable:${creator.id}`))
        )[0]?.balanceMinor ?? 0,
      );
    expect(await receivable()).toBe(-1600);
    expect(await checkLedger(t.app.db)).toEqual(exact);
    // The back office's reconciliation tile stays green: a receivable below zero is not a mismatch.
    expect((await staff.client.get('/api/admin/ledger/reconciliation')).json().payload).toMatchObject({ ok: true, first_mismatch: null });
    const owed = (await staff.client.get('/api/admin/receivables')).json().payload;
    // The money screen's list (a receivable's balance: below zero, owed).
    expect(owed.find((r: { user: { id: number } }) => r.user.id === creator.id)).toMatchObject({ amount: { amount_minor: -1600 } });
    expect((await creator.client.get('/api/admin/receivables')).statusCode).toBe(403);

    // Withdrawing is refused while the creator owes it, with a clear message.
    await fund(t.app, creator.id, 0 + 1);
    const refused = await creator.client.post('/api/earnings/withdraw', { ...sepa, amount: 10 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.amount[0]).toBe(
      'You owe €16.00 from refunds of works you had already been paid for: you can withdraw again once your sales have covered it.',
    );

    // The next sales pay it off first: 1000 earns 800 (all to the receivable), 2500 earns 2000 (800 of it to the receivable).
    const second = await prompt(creator.id, 1000);
    await boughtPrompt(second, 1000);
    expect(await receivable()).toBe(-800);
    expect(await pendingMinor(t.app, creator.id)).toBe(0);
    const third = await prompt(creator.id, 2500);
    await boughtPrompt(third, 2500);
    expect(await receivable()).toBe(0);
    expect(await pendingMinor(t.app, creator.id)).toBe(1200);
    expect((await staff.client.get('/api/admin/receivables')).json().payload.find((r: { user: { id: number } }) => r.user.id === creator.id)).toBeUndefined();
    expect(await checkLedger(t.app.db)).toEqual(exact);
    await releaseDueEarnings(t.app.db, { clearingDays: 0 });
    expect((await creator.client.post('/api/earnings/withdraw', { ...sepa, amount: 12 })).statusCode).toBe(200);
  });
});
