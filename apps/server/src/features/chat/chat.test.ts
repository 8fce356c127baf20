import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { lastMailTo } from '../../../test/accounts';
import { chatPair, chatPerson, multipart as form, testPng as png, sendChat as send, sendChatForm as sendForm } from '../../../test/chat';
import { balanceMinor, fund, pendingMinor, revenueMinor } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { chatMessages, products, users } from '../../db/schema';
import { checkLedger } from '../ledger';
import { CHAT_SEND_LIMIT } from './chat.routes';

const t = useTestApp({ registration: true });

const person = () => chatPerson(t.app);
const pair = () => chatPair(t.app);

describe('conversations', () => {
  it('a guest gets 401', async () => {
    const guest = new TestClient(t.app);
    expect((await guest.get('/api/chat')).statusCode).toBe(401);
    expect((await guest.post('/api/chat', { recipient_id: 1 })).statusCode).toBe(401);
    expect((await guest.get('/api/notifications')).statusCode).toBe(401);
    expect((await guest.get('/api/events')).statusCode).toBe(401);
  });

  it('opens one chat per pair, lists it in the SPEC shape, and pages messages', async () => {
    const { buyer, creator, chatId } = await pair();
    const again = await buyer.client.post('/api/chat', { recipient_id: creator.id });
    expect(again.json().payload.id).toBe(chatId);
    const reverse = await creator.client.post('/api/chat', { recipient_id: buyer.id });
    expect(reverse.json().payload.id).toBe(chatId);
    expect((await buyer.client.post('/api/chat', { recipient_id: buyer.id })).statusCode).toBe(422);
    expect((await buyer.client.post('/api/chat', { recipient_id: 999999 })).statusCode).toBe(404);

    expect((await send(buyer.client, chatId, { message: 'Hello, can you paint a fox?' })).statusCode).toBe(200);
    const list = (await creator.client.get('/api/chat')).json().payload;
    expect(list[0]).toMatchObject({
      id: chatId,
      status: 'active',
      name: 'Ines Duarte',
      isOnline: true,
      unreadCount: 1,
      unread_messages_count: 1,
      last_message: 'Hello, can you paint a fox?',
      rate: 0,
      sender: { id: buyer.id, first_name: 'Ines', last_name: 'Duarte', isOnline: true, hourly_rate: 0 },
      recipient: { id: creator.id },
    });
    const page = (await creator.client.get(`/api/chat/${chatId}/messages`)).json();
    expect(page.meta).toEqual({ next: null });
    expect(page.payload).toEqual([
      expect.objectContaining({
        message: 'Hello, can you paint a fox?',
        user: { id: buyer.id },
        is_locked: false,
        is_preview: false,
        price: null,
        attachment_url: null,
      }),
    ]);
    // Opening it read it.
    expect((await creator.client.get('/api/chat')).json().payload[0].unreadCount).toBe(0);
    // Pages of 30, newest first.
    await t.app.db.insert(chatMessages).values(Array.from({ length: 30 }, (_, i) => ({ chatId, userId: buyer.id, body: `m${i}` })));
    const first = (await buyer.client.get(`/api/chat/${chatId}/messages`)).json();
    expect(first.payload).toHaveLength(30);
    expect(first.payload.at(-1).message).toBe('m29');
    expect(first.meta.next).toBe(`/api/chat/${chatId}/messages?page=2`);
    const second = (await buyer.client.get(first.meta.next)).json();
    expect(second.payload.map((m: { message: string }) => m.message)).toEqual(['Hello, can you paint a fox?']);
  });

  it('a third user gets 404 for the chat, its messages, sending, unlocking and its files', async () => {
    const { buyer, chatId } = await pair();
    const sent = await sendForm(buyer.client, chatId, form({ message: 'sketch' }, { name: 'sketch.png', type: 'image/png', data: await png() }));
    expect(sent.statusCode).toBe(200);
    const url = sent.json().payload.attachment_url as string;
    expect(url).toBe(`/api/chat/${chatId}/messages/${sent.json().payload.id}/attachment`);
    expect((await buyer.client.get(url)).statusCode).toBe(200);
    const stranger = await person();
    expect((await stranger.client.get(`/api/chat/${chatId}/messages`)).statusCode).toBe(404);
    expect((await send(stranger.client, chatId, { message: 'hi' })).statusCode).toBe(404);
    expect((await stranger.client.post(`/api/chat/${chatId}/unlock`, { message_id: sent.json().payload.id })).statusCode).toBe(404);
    expect((await stranger.client.get(url)).statusCode).toBe(404);
    expect((await stranger.client.get('/api/chat')).json().payload).toEqual([]);
  });

  it('refuses empty, whitespace, too long and wrong-type messages with 422', async () => {
    const { buyer, chatId } = await pair();
    for (const body of [{ message: '' }, { message: '   \n ' }, {}, { message: 'x'.repeat(5001) }]) {
      const res = await send(buyer.client, chatId, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().status).toBe('ERROR');
    }
    expect((await send(buyer.client, chatId, { message: 'x'.repeat(5000) })).statusCode).toBe(200);
    const exe = await sendForm(buyer.client, chatId, form({}, { name: 'cat.png', type: 'image/png', data: Buffer.from('MZ\x90\x00 this is a program') }));
    expect(exe.statusCode).toBe(422);
    expect(exe.json().errors.attachment[0]).toMatch(/image .* or a document/);
    const pdf = await sendForm(buyer.client, chatId, form({}, { name: 'brief.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4\n%...') }));
    expect(pdf.statusCode).toBe(200);
    expect(pdf.json().payload.attachment_name).toBe('brief.pdf');
    const big = await sendForm(
      buyer.client,
      chatId,
      form({}, { name: 'big.pdf', type: 'application/pdf', data: Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(20 * 1024 * 1024)]) }),
    );
    expect(big.statusCode).toBe(422);
    expect(big.json().errors.attachment[0]).toBe('The attachment may be at most 20 MB.');
  });

  it('a blocked party cannot send (403) until unblocked', async () => {
    const { buyer, creator, chatId } = await pair();
    const blocked = await creator.client.post(`/api/chat/${chatId}/block`);
    expect(blocked.json().payload).toMatchObject({ blocked_by_me: true, blocked_me: false });
    const res = await send(buyer.client, chatId, { message: 'hello?' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You cannot send messages in this chat: this person has blocked you.');
    expect((await send(creator.client, chatId, { message: 'hi' })).statusCode).toBe(403);
    await creator.client.post(`/api/chat/${chatId}/unblock`);
    expect((await send(buyer.client, chatId, { message: 'hello?' })).statusCode).toBe(200);
  });

  it('messages left unread for 10 minutes bring one e-mail digest, through the job queue', async () => {
    const { buyer, creator, chatId } = await pair();
    await send(buyer.client, chatId, { message: 'first' });
    await send(buyer.client, chatId, { message: 'second' });
    expect((await creator.client.get('/api/notifications/unread-count')).json().payload).toEqual({ notifications: 2, chat_messages: 2 });
    await t.app.jobs.runDue();
    expect((await lastMailTo(t.app, creator.email))?.subject ?? '').not.toMatch(/unread/);
    await t.app.jobs.runDue({ at: new Date(Date.now() + 11 * 60 * 1000) });
    const mail = await lastMailTo(t.app, creator.email);
    expect(mail?.subject).toBe('You have 2 unread messages on Atelier');
    expect(mail?.text).toContain('/dashboard/chat');
    // Told once: the next digest names only what came after, and nothing once it is read.
    await send(buyer.client, chatId, { message: 'third' });
    await t.app.jobs.runDue({ at: new Date(Date.now() + 11 * 60 * 1000) });
    expect((await lastMailTo(t.app, creator.email))?.subject).toBe('You have one unread message on Atelier');
    const told = (await lastMailTo(t.app, creator.email))?.id;
    await send(buyer.client, chatId, { message: 'fourth' });
    await creator.client.get(`/api/chat/${chatId}/messages`);
    await t.app.jobs.runDue({ at: new Date(Date.now() + 11 * 60 * 1000) });
    expect((await lastMailTo(t.app, creator.email))?.id).toBe(told);
  });

  it('sending is rate-limited (429)', async () => {
    const { buyer, chatId } = await pair();
    for (let i = 0; i < CHAT_SEND_LIMIT.limit; i++) expect((await send(buyer.client, chatId, { message: `n${i}` })).statusCode).toBe(200);
    const res = await send(buyer.client, chatId, { message: 'one more' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('the commission deal', () => {
  it('proposal, negotiation, acceptance, locked image, unlock: money moves once and the original reaches the buyer only', async () => {
    const { buyer, creator, chatId } = await pair();
    const status = async () => (await buyer.client.get('/api/chat')).json().payload.find((c: { id: number }) => c.id === chatId).status;

    // Illegal moves change nothing.
    expect((await send(buyer.client, chatId, { action: 'accept_price' })).statusCode).toBe(409);
    expect((await send(buyer.client, chatId, { type: 'price_proposal', amount: 10 })).statusCode).toBe(409);
    const early = await sendForm(creator.client, chatId, form({ is_locked: '1', price: '10' }, { name: 'art.png', type: 'image/png', data: await png() }));
    expect(early.statusCode).toBe(409);
    expect(await status()).toBe('active');

    const proposal = await send(creator.client, chatId, { type: 'price_proposal', amount: 30 });
    expect(proposal.statusCode).toBe(200);
    expect(proposal.json().payload).toMatchObject({ type: 'price_proposal', message: 'Price offered: 30.00 €', price: { amount: 30, formatted: '30.00 €' } });
    expect(await status()).toBe('price_proposed');
    expect((await send(creator.client, chatId, { action: 'accept_price' })).statusCode).toBe(409);
    const negotiate = await send(buyer.client, chatId, { action: 'negotiate_price' });
    expect(negotiate.json().payload).toMatchObject({ type: 'system', message: 'Asking for a better price' });
    expect(await status()).toBe('active');
    await send(creator.client, chatId, { type: 'price_proposal', amount: 25 });
    expect((await send(buyer.client, chatId, { action: 'accept_price' })).json().payload.message).toBe('Price accepted');
    expect(await status()).toBe('generating');

    const original = await png();
    const locked = await sendForm(
      creator.client,
      chatId,
      form({ is_locked: '1', price: '25', message: 'Here it is' }, { name: 'fox.png', type: 'image/png', data: original }),
    );
    expect(locked.statusCode).toBe(200);
    const messageId = locked.json().payload.id as number;
    expect(await status()).toBe('waiting_payment');

    // The buyer sees a public, blurred WebP preview; the original is not reachable before payment.
    const seen = (await buyer.client.get(`/api/chat/${chatId}/messages`)).json().payload.find((m: { id: number }) => m.id === messageId);
    expect(seen).toMatchObject({ is_locked: true, is_preview: true, price: { amount: 25 } });
    expect(seen.attachment_url).toMatch(/^\/storage\/chat-previews\/[0-9a-f]+\.webp$/);
    const preview = await new TestClient(t.app).get(seen.attachment_url);
    expect(preview.statusCode).toBe(200);
    expect(preview.rawPayload.equals(original)).toBe(false);
    const fileUrl = `/api/chat/${chatId}/messages/${messageId}/attachment`;
    expect((await buyer.client.get(fileUrl)).statusCode).toBe(404);
    // Its creator has the original all along (issue 18 bug 12).
    expect((await creator.client.get(fileUrl)).statusCode).toBe(200);

    // Too little money: the answer is the card widget for exactly the price; nothing is unlocked yet.
    await fund(t.app, buyer.id, 1000);
    const short = await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: messageId });
    expect(short.statusCode).toBe(200);
    expect(short.json().payload).toMatchObject({
      status: 'Pending',
      payment_type: 'widget',
      widget_data: { payment_type: 'widget', public_key: 'pk_sandbox' },
    });
    expect(await balanceMinor(t.app, buyer.id)).toBe(1000);
    expect(await status()).toBe('waiting_payment');

    await fund(t.app, buyer.id, 2000);
    const revenueBefore = await revenueMinor(t.app);
    expect((await creator.client.post(`/api/chat/${chatId}/unlock`, { message_id: messageId })).statusCode).toBe(403);
    const paid = await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: messageId }, { 'idempotency-key': 'unlock-1' });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().payload).toMatchObject({ status: 'Success', message: { is_locked: false, is_preview: false, attachment_url: fileUrl } });
    const again = await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: messageId });
    expect(again.statusCode).toBe(200);
    expect(await balanceMinor(t.app, buyer.id)).toBe(500);
    expect(await pendingMinor(t.app, creator.id)).toBe(2000);
    expect((await revenueMinor(t.app)) - revenueBefore).toBe(500);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
    expect(await status()).toBe('active');

    const download = await buyer.client.get(fileUrl);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(original)).toBe(true);

    // A message with no price cannot be unlocked.
    const text = await send(buyer.client, chatId, { message: 'Thanks!' });
    const noPrice = await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: text.json().payload.id });
    expect(noPrice.statusCode).toBe(422);
    expect(noPrice.json().message).toBe('Cannot unlock: No price set for this image.');

    // Every step is in the conversation, and the bell has them.
    const all = (await buyer.client.get(`/api/chat/${chatId}/messages`))
      .json()
      .payload.map((m: { type: string; message: string | null }) => m.message ?? m.type);
    expect(all).toEqual([
      'Price offered: 30.00 €',
      'Asking for a better price',
      'Price offered: 25.00 €',
      'Price accepted',
      'Here it is',
      'Image unlocked',
      'Thanks!',
    ]);
    const bell = (await creator.client.get('/api/notifications')).json();
    expect(bell.payload.map((n: { kind: string }) => n.kind)).toEqual(['new_message', 'image_unlocked', 'price_accepted', 'price_negotiated']);
    expect(bell.meta.unread_count).toBe(4);
    expect(bell.payload[0]).toMatchObject({ link: `/dashboard/chat?chat=${chatId}`, chat_id: chatId, read: false });
    const read = await creator.client.post('/api/notifications/read', { ids: [bell.payload[0].id] });
    expect(read.json().payload).toEqual({ marked: 1, unread_count: 3 });
    await creator.client.post('/api/notifications/read', {});
    expect((await creator.client.get('/api/notifications/unread-count')).json().payload.notifications).toBe(0);
  });

  it('a short balance unlocks through the sandbox card widget: the webhook credits and pays in one go, once', async () => {
    const { buyer, creator, chatId } = await pair();
    await send(creator.client, chatId, { type: 'price_proposal', amount: 20 });
    await send(buyer.client, chatId, { action: 'accept_price' });
    const locked = await sendForm(creator.client, chatId, form({ is_locked: '1' }, { name: 'owl.png', type: 'image/png', data: await png() }));
    const messageId = locked.json().payload.id as number;
    const fileUrl = `/api/chat/${chatId}/messages/${messageId}/attachment`;
    const revenueBefore = await revenueMinor(t.app);
    const unlock = () => buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: messageId });
    const cardPage = (checkout: string) => `/api/payments/sandbox/pay/${checkout}?embed=1`;
    const payCard = (checkout: string, number: string) =>
      t.app.inject({
        method: 'POST',
        url: cardPage(checkout),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ card_number: number, exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 2), cvc: '123' }).toString(),
      });
    const depositStatus = async (orderId: number) => (await buyer.client.get(`/api/deposit/status?order_id=${orderId}`)).json().payload.status;

    // A declined card: the payment fails, nothing is charged or unlocked.
    const first = (await unlock()).json().payload;
    expect(first).toMatchObject({ status: 'Pending', payment_type: 'widget' });
    expect((await t.app.inject({ method: 'GET', url: cardPage(first.widget_data.checkout) })).body).toContain('20.00');
    // The widget's frame stays in the chat's dialog to the end (issue 18 bug 5): it says what happened.
    const declined = await payCard(first.widget_data.checkout, '4000000000000002');
    expect(declined.statusCode).toBe(200);
    expect(declined.body).toContain('data-outcome="failed"');
    expect(await depositStatus(first.order_id)).toBe('failed');
    expect((await buyer.client.get(fileUrl)).statusCode).toBe(404);

    // 4242…: the webhook credits 20 € and pays the image with it, in one transaction.
    const second = (await unlock()).json().payload;
    expect(second.order_id).not.toBe(first.order_id);
    expect((await payCard(second.widget_data.checkout, '4242424242424242')).body).toContain('data-outcome="succeeded"');
    expect(await depositStatus(second.order_id)).toBe('success');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect(await pendingMinor(t.app, creator.id)).toBe(1600);
    expect((await revenueMinor(t.app)) - revenueBefore).toBe(400);
    const download = await buyer.client.get(fileUrl);
    expect(download.statusCode).toBe(200);
    const chat = (await buyer.client.get('/api/chat')).json().payload.find((c: { id: number }) => c.id === chatId);
    expect(chat.status).toBe('active');
    const messages = (await buyer.client.get(`/api/chat/${chatId}/messages`)).json().payload;
    expect(messages.at(-1)).toMatchObject({ type: 'system', message: 'Image unlocked' });
    expect(messages.find((m: { id: number }) => m.id === messageId)).toMatchObject({ is_locked: false, attachment_url: fileUrl });

    // Asking again is a plain success that charges nothing.
    expect((await unlock()).json().payload).toMatchObject({ status: 'Success', message: { id: messageId, is_locked: false } });
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    const notes = (await creator.client.get('/api/notifications')).json().payload.filter((n: { kind: string }) => n.kind === 'image_unlocked');
    expect(notes).toHaveLength(1);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it('a card payment that lands after the image was paid from the balance stays on the balance (charged once)', async () => {
    const { buyer, creator, chatId } = await pair();
    await send(creator.client, chatId, { type: 'price_proposal', amount: 10 });
    await send(buyer.client, chatId, { action: 'accept_price' });
    const locked = await sendForm(creator.client, chatId, form({ is_locked: '1' }, { name: 'owl.png', type: 'image/png', data: await png() }));
    const messageId = locked.json().payload.id as number;
    const pending = (await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: messageId })).json().payload;
    expect(pending.status).toBe('Pending');
    await fund(t.app, buyer.id, 1000);
    expect((await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: messageId })).json().payload.status).toBe('Success');
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/pay/${pending.widget_data.checkout}?embed=1`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        card_number: '4242424242424242',
        exp_month: '12',
        exp_year: String(new Date().getUTCFullYear() + 2),
        cvc: '123',
      }).toString(),
    });
    expect(paid.statusCode).toBe(200);
    expect(await balanceMinor(t.app, buyer.id)).toBe(1000);
    expect(await pendingMinor(t.app, creator.id)).toBe(800);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it('10 parallel unlocks of one image charge once (with and without Idempotency-Key)', async () => {
    const { buyer, creator, chatId } = await pair();
    await send(creator.client, chatId, { type: 'price_proposal', amount: 12.5 });
    await send(buyer.client, chatId, { action: 'accept_price' });
    const locked = await sendForm(creator.client, chatId, form({ is_locked: '1' }, { name: 'owl.png', type: 'image/png', data: await png() }));
    expect(locked.json().payload.price).toMatchObject({ amount: 12.5 });
    const messageId = locked.json().payload.id;
    await fund(t.app, buyer.id, 5000);
    const revenueBefore = await revenueMinor(t.app);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: messageId }, i % 2 ? { 'idempotency-key': 'same-unlock' } : undefined),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    for (const r of answers) expect(r.json().payload.message).toMatchObject({ id: messageId, is_locked: false });
    expect(await balanceMinor(t.app, buyer.id)).toBe(5000 - 1250);
    expect(await pendingMinor(t.app, creator.id)).toBe(1000);
    expect((await revenueMinor(t.app)) - revenueBefore).toBe(250);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
    const unlockedNotes = (await creator.client.get('/api/notifications')).json().payload.filter((n: { kind: string }) => n.kind === 'image_unlocked');
    expect(unlockedNotes).toHaveLength(1);
  });

  it('a product opens the chat with its author and puts the product card first', async () => {
    const author = await person();
    const buyer = await person();
    const [product] = await t.app.db
      .insert(products)
      .values({ slug: `chat-card-${author.id}`, title: 'Fox in snow', productType: 'image', authorId: author.id, priceMinor: 900, status: 'published' })
      .returning({ id: products.id });
    const productId = product!.id;
    const res = await buyer.client.post('/api/chat', { product_id: productId });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.recipient.id).toBe(author.id);
    const messages = (await buyer.client.get(`/api/chat/${res.json().payload.id}/messages`)).json().payload;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ type: 'product', message: 'Fox in snow', product: { id: productId, title: 'Fox in snow' } });
    await buyer.client.post('/api/chat', { product_id: productId });
    expect((await buyer.client.get(`/api/chat/${res.json().payload.id}/messages`)).json().payload).toHaveLength(1);
  });

  it('a product whose author has deleted the account is not found, as everywhere else (the one visibility rule)', async () => {
    const author = await person();
    const buyer = await person();
    const [product] = await t.app.db
      .insert(products)
      .values({ slug: `chat-gone-${author.id}`, title: 'Heron at dusk', productType: 'image', authorId: author.id, priceMinor: 900, status: 'published' })
      .returning({ id: products.id });
    await t.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, author.id));
    const res = await buyer.client.post('/api/chat', { product_id: product!.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('This product was not found.');
  });
});
