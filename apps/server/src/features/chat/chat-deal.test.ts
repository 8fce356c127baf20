import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { lastMailTo } from '../../../test/accounts';
import { cardPaidWebhook, cardProviderOf, chatPair, multipart, sendChat, sendChatForm, testPng } from '../../../test/chat';
import { balanceMinor, fund, pendingMinor } from '../../../test/commerce';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { chats, currencies, deposits, jobs, siteSettings } from '../../db/schema';
import { setSetting } from '../../lib/settings';
import { checkLedger } from '../ledger';

const t = useTestApp({ registration: true });

const DAY = 24 * 60 * 60 * 1000;
/** The deal's expiry job (chat-deal.routes.ts), by name. */
const DEAL_EXPIRE_JOB = 'chat.deal-expire';
const later = (days: number) => new Date(Date.now() + days * DAY + 60_000);

async function statusOf(client: TestClient, chatId: number): Promise<string> {
  return (await client.get('/api/chat')).json().payload.find((c: { id: number }) => c.id === chatId).status;
}
async function messagesOf(client: TestClient, chatId: number) {
  return (await client.get(`/api/chat/${chatId}/messages`)).json().payload as {
    id: number;
    type: string;
    message: string | null;
    is_locked: boolean;
    is_preview: boolean;
    attachment_url: string | null;
    price: { amount: number } | null;
    user: { id: number };
  }[];
}
async function bellKinds(client: TestClient) {
  return ((await client.get('/api/notifications')).json().payload as { kind: string }[]).map((n) => n.kind);
}

/** The largest card payment, as staff set it in the back office (a commerce setting). */
async function setDepositMax(value: number) {
  await t.app.db.insert(siteSettings).values({ key: 'deposit_max', value }).onConflictDoUpdate({ target: siteSettings.key, set: { value } });
}

type Pair = Awaited<ReturnType<typeof chatPair>>;

/** Walks a fresh chat into `status`: a proposal of `amount`, its acceptance, the locked image. */
async function dealIn(status: 'price_proposed' | 'generating' | 'waiting_payment', amount = 20): Promise<Pair & { imageId: number | null }> {
  const pair = await chatPair(t.app);
  const { buyer, creator, chatId } = pair;
  expect((await sendChat(creator.client, chatId, { type: 'price_proposal', amount })).statusCode).toBe(200);
  if (status === 'price_proposed') return { ...pair, imageId: null };
  expect((await sendChat(buyer.client, chatId, { action: 'accept_price' })).statusCode).toBe(200);
  if (status === 'generating') return { ...pair, imageId: null };
  const locked = await sendChatForm(creator.client, chatId, multipart({ is_locked: '1' }, { name: 'fox.png', type: 'image/png', data: await testPng() }));
  expect(locked.statusCode).toBe(200);
  return { ...pair, imageId: locked.json().payload.id as number };
}

const cardPaid = (depositId: number) => cardPaidWebhook(t.app, depositId);

describe('hole 8: chat deals have exits', () => {
  it('hole 8: the buyer or the creator cancels from price_proposed, generating or waiting_payment; a system message, back to active', async () => {
    for (const status of ['price_proposed', 'generating', 'waiting_payment'] as const) {
      for (const side of ['buyer', 'creator'] as const) {
        const deal = await dealIn(status);
        const me = deal[side];
        const other = side === 'buyer' ? deal.creator : deal.buyer;
        expect(await statusOf(me.client, deal.chatId)).toBe(status);
        const res = await sendChat(me.client, deal.chatId, { action: 'cancel_deal' });
        expect(res.statusCode).toBe(200);
        expect(res.json().payload).toMatchObject({ type: 'system', message: 'Deal cancelled', user: { id: me.id } });
        expect(await statusOf(other.client, deal.chatId)).toBe('active');
        expect((await messagesOf(other.client, deal.chatId)).at(-1)).toMatchObject({ type: 'system', message: 'Deal cancelled' });
        expect((await bellKinds(other.client))[0]).toBe('deal_cancelled');
        // Nothing to cancel while talking; the chat is open for a new proposal.
        expect((await sendChat(me.client, deal.chatId, { action: 'cancel_deal' })).statusCode).toBe(409);
        expect((await sendChat(deal.creator.client, deal.chatId, { type: 'price_proposal', amount: 12 })).statusCode).toBe(200);
      }
    }
  });

  it('hole 8: a cancelled deal’s locked image can no longer be paid: neither from the balance nor by a card payment that lands later', async () => {
    const { buyer, creator, chatId, imageId } = await dealIn('waiting_payment', 10);
    const pending = (await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: imageId })).json().payload;
    expect(pending).toMatchObject({ status: 'Pending', payment_type: 'widget' });
    expect((await sendChat(creator.client, chatId, { action: 'cancel_deal' })).statusCode).toBe(200);
    await fund(t.app, buyer.id, 5000);
    const refused = await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: imageId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This image can no longer be unlocked: its deal was cancelled or closed. Ask the creator for a new price.');
    // The card's money arrives anyway: it stays on the buyer's balance, the image stays locked.
    expect((await cardPaid(pending.order_id)).statusCode).toBe(200);
    expect(await balanceMinor(t.app, buyer.id)).toBe(6000);
    expect(await pendingMinor(t.app, creator.id)).toBe(0);
    expect((await messagesOf(buyer.client, chatId)).find((m) => m.id === imageId)).toMatchObject({ is_locked: true, is_preview: true });
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it('hole 8: a deal waiting on the other side expires after 14 days (a job), back to active; a later move has its own wait', async () => {
    const { buyer, creator, chatId } = await dealIn('price_proposed');
    await t.app.jobs.runDue({ at: later(13) });
    expect(await statusOf(buyer.client, chatId)).toBe('price_proposed');
    await t.app.jobs.runDue({ at: later(14) });
    expect(await statusOf(buyer.client, chatId)).toBe('active');
    expect((await messagesOf(creator.client, chatId)).at(-1)).toMatchObject({ type: 'system', message: 'No answer for 14 days: the deal was closed' });
    expect((await bellKinds(buyer.client))[0]).toBe('deal_expired');
    expect((await bellKinds(creator.client))[0]).toBe('deal_expired');

    // A new proposal, accepted: the proposal's wait is over, the creator's (generating) starts now.
    await sendChat(creator.client, chatId, { type: 'price_proposal', amount: 15 });
    await sendChat(buyer.client, chatId, { action: 'accept_price' });
    const [chat] = await t.app.db.select({ step: chats.dealStep }).from(chats).where(eq(chats.id, chatId));
    // The creator's wait began later than the proposal's (moved on here, as if accepted 5 days on).
    await t.app.db
      .update(jobs)
      .set({ runAt: later(19) })
      .where(and(eq(jobs.name, DEAL_EXPIRE_JOB), eq(jobs.singletonKey, `chat:${chatId}:step:${chat!.step}`)));
    await t.app.jobs.runDue({ at: later(15) });
    expect(await statusOf(buyer.client, chatId)).toBe('generating');
    await t.app.jobs.runDue({ at: later(20) });
    expect(await statusOf(buyer.client, chatId)).toBe('active');
    const closed = (await messagesOf(buyer.client, chatId)).filter((m) => m.message === 'No answer for 14 days: the deal was closed');
    expect(closed).toHaveLength(2);
  });

  it('hole 8: the locked image’s price is the accepted price; another price is a 422 asking for a new proposal', async () => {
    const { creator, chatId } = await dealIn('generating', 5);
    const other = await sendChatForm(
      creator.client,
      chatId,
      multipart({ is_locked: '1', price: '100000' }, { name: 'fox.png', type: 'image/png', data: await testPng() }),
    );
    expect(other.statusCode).toBe(422);
    expect(other.json().errors.price[0]).toBe('The agreed price is 5.00 €. To ask for a different price, cancel this deal and propose a new price.');
    expect(await statusOf(creator.client, chatId)).toBe('generating');
    const same = await sendChatForm(
      creator.client,
      chatId,
      multipart({ is_locked: '1', price: '5.00' }, { name: 'fox.png', type: 'image/png', data: await testPng() }),
    );
    expect(same.statusCode).toBe(200);
    expect(same.json().payload.price).toMatchObject({ amount: 5 });
  });

  it('hole 8: a price is never above the deposit maximum: not in a proposal, and no card payment above it', async () => {
    const { buyer, creator, chatId } = await chatPair(t.app);
    const huge = await sendChat(creator.client, chatId, { type: 'price_proposal', amount: 100000 });
    expect(huge.statusCode).toBe(422);
    expect(huge.json().errors.amount[0]).toBe('The price may be at most 1000.00 €, the largest card payment.');
    await setDepositMax(50);
    try {
      expect((await sendChat(creator.client, chatId, { type: 'price_proposal', amount: 60 })).statusCode).toBe(422);
      expect((await sendChat(creator.client, chatId, { type: 'price_proposal', amount: 50 })).statusCode).toBe(200);
      await sendChat(buyer.client, chatId, { action: 'accept_price' });
      const image = await sendChatForm(creator.client, chatId, multipart({ is_locked: '1' }, { name: 'fox.png', type: 'image/png', data: await testPng() }));
      const imageId = image.json().payload.id as number;
      // The limit went down after the deal was agreed: the card payment is refused, nothing is started.
      await setDepositMax(20);
      const before = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(deposits);
      const unlock = await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: imageId });
      expect(unlock.statusCode).toBe(422);
      expect(unlock.json().errors.balance[0]).toBe('Your balance does not cover the price, and a card payment may be at most 20.00 €. Please add funds first.');
      expect(await t.app.db.select({ n: sql<number>`count(*)::int` }).from(deposits)).toEqual(before);
    } finally {
      await setDepositMax(1000);
    }
  });

  it('hole 8: a price with more than 2 decimals is a 422 under its field (was a 500)', async () => {
    const { creator, chatId } = await chatPair(t.app);
    const json = await sendChat(creator.client, chatId, { type: 'price_proposal', amount: 10.123 });
    expect(json.statusCode).toBe(422);
    expect(json.json().errors.amount[0]).toBe('The price may have at most 2 decimals (cents).');
    const deal = await dealIn('generating', 10);
    const form = await sendChatForm(
      deal.creator.client,
      deal.chatId,
      multipart({ is_locked: '1', price: '10.001' }, { name: 'fox.png', type: 'image/png', data: await testPng() }),
    );
    expect(form.statusCode).toBe(422);
    expect(form.json().errors.price[0]).toBe('The price may have at most 2 decimals (cents).');
    expect(await statusOf(creator.client, chatId)).toBe('active');
  });

  it('hole 8: with e-mail verification on, an unverified user cannot send, propose, accept or unlock in a chat (403, no card payment)', async () => {
    const talk = await chatPair(t.app);
    const offered = await dealIn('price_proposed');
    const waiting = await dealIn('waiting_payment');
    await setSetting(t.app.db, 'is_email_verification_enabled', true);
    try {
      const before = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(deposits);
      const answers = [
        await sendChat(talk.buyer.client, talk.chatId, { message: 'hello' }),
        await sendChat(talk.creator.client, talk.chatId, { type: 'price_proposal', amount: 10 }),
        await sendChat(offered.buyer.client, offered.chatId, { action: 'accept_price' }),
        await waiting.buyer.client.post(`/api/chat/${waiting.chatId}/unlock`, { message_id: waiting.imageId }),
        await talk.buyer.client.post('/api/chat', { recipient_id: waiting.creator.id }),
      ];
      for (const a of answers) expect(a.json()).toEqual({ status: 'ERROR', message: 'Your email address is not verified.', code: 'auth.email_not_verified' });
      expect(answers.map((a) => a.statusCode)).toEqual([403, 403, 403, 403, 403]);
      expect(await t.app.db.select({ n: sql<number>`count(*)::int` }).from(deposits)).toEqual(before);
      // Reading stays possible.
      expect((await talk.buyer.client.get(`/api/chat/${talk.chatId}/messages`)).statusCode).toBe(200);
    } finally {
      await setSetting(t.app.db, 'is_email_verification_enabled', false);
    }
  });
});

describe('issue 18: the chat', () => {
  it('issue 18 bug 7: a paid image shows what was paid, in euros, with today’s amount in the chosen currency only as a hint', async () => {
    const { buyer, creator, chatId, imageId } = await dealIn('waiting_payment', 20);
    await fund(t.app, buyer.id, 5000);
    const yen = { 'x-currency': 'JPY' };
    await t.app.db.insert(currencies).values({ code: 'JPY', symbol: '¥', rate: '162', decimals: 0, isDefault: false, position: 3 }).onConflictDoNothing();
    // Each app server reads the currencies again when PostgreSQL says they changed.
    await vi.waitFor(async () => expect((await buyer.client.get(`/api/chat/${chatId}/messages`, yen)).statusCode).toBe(200), { timeout: 3000, interval: 50 });
    const before = (await buyer.client.get(`/api/chat/${chatId}/messages`, yen)).json().payload as { id: number; type: string; price: unknown }[];
    // Before paying, a price is a price in the chosen currency, named.
    expect(before.find((m) => m.id === imageId)?.price).toEqual({ amount: 3240, formatted: '3240 ¥', currency: 'JPY', today: null });
    expect((await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: imageId }, yen)).statusCode).toBe(200);
    for (const client of [buyer.client, creator.client]) {
      const inYen = (await client.get(`/api/chat/${chatId}/messages`, yen)).json().payload as { id: number; type: string; price: unknown }[];
      expect(inYen.find((m) => m.id === imageId)?.price).toEqual({
        amount: 20,
        formatted: '20.00 €',
        currency: 'EUR',
        today: { amount: 3240, currency: 'JPY' },
      });
      // The offer that led to it is not a payment: it stays in the chosen currency.
      expect(inYen.find((m) => m.type === 'price_proposal')?.price).toMatchObject({ amount: 3240, currency: 'JPY' });
      const inEuro = (await client.get(`/api/chat/${chatId}/messages`, { 'x-currency': 'EUR' })).json().payload as { id: number; price: unknown }[];
      expect(inEuro.find((m) => m.id === imageId)?.price).toEqual({ amount: 20, formatted: '20.00 €', currency: 'EUR', today: null });
    }
  });

  it('bug 12: the creator sees their own delivered locked image, the original, never blurred', async () => {
    const { buyer, creator, chatId } = await dealIn('generating');
    const original = await testPng({ r: 10, g: 200, b: 30 });
    const sent = await sendChatForm(creator.client, chatId, multipart({ is_locked: '1' }, { name: 'owl.png', type: 'image/png', data: original }));
    const id = sent.json().payload.id as number;
    const fileUrl = `/api/chat/${chatId}/messages/${id}/attachment`;
    expect(sent.json().payload).toMatchObject({ is_locked: true, is_preview: false, attachment_url: fileUrl });
    expect((await messagesOf(creator.client, chatId)).find((m) => m.id === id)).toMatchObject({ is_locked: true, is_preview: false, attachment_url: fileUrl });
    const file = await creator.client.get(fileUrl);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(original)).toBe(true);
    // The buyer still has only the blurred preview until paying.
    expect((await messagesOf(buyer.client, chatId)).find((m) => m.id === id)).toMatchObject({ is_locked: true, is_preview: true });
    expect((await buyer.client.get(fileUrl)).statusCode).toBe(404);
  });

  it('bug 5: the in-chat card payment stays in its frame through 3-D Secure, and is never called a deposit', async () => {
    const { buyer, creator, chatId, imageId } = await dealIn('waiting_payment', 15);
    const pending = (await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: imageId })).json().payload;
    const framed = (path: string, form?: Record<string, string>) =>
      t.app.inject({
        method: form ? 'POST' : 'GET',
        url: path,
        ...(form ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() } : {}),
      });
    const action = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
    const page = await framed(`/api/payments/sandbox/pay/${pending.widget_data.checkout}?embed=1`);
    expect(page.body).toContain('<h1>Card payment</h1>');
    expect(page.body).toContain('15.00');
    expect(page.body).not.toMatch(/deposit|add funds|target="_top"/i);
    const year = String(new Date().getUTCFullYear() + 2);
    const threeDs = await framed(action(page.body), { card_number: '4000000000003220', exp_month: '12', exp_year: year, cvc: '123' });
    expect(threeDs.statusCode).toBe(200);
    expect(threeDs.body).toContain('3-D Secure');
    expect(threeDs.body).not.toContain('target="_top"');
    const done = await framed(action(threeDs.body), { three_ds: 'complete' });
    // No redirect: the frame's last page tells the dialog, which refreshes the chat in place.
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain(`data-outcome="succeeded" data-deposit="${pending.order_id}"`);
    expect(done.body).toContain('<script src="/api/payments/sandbox/frame-done.js"></script>');
    const script = await framed('/api/payments/sandbox/frame-done.js');
    expect(script.body).toContain('postMessage');
    expect((await messagesOf(buyer.client, chatId)).find((m) => m.id === imageId)).toMatchObject({ is_locked: false, is_preview: false });
    expect(await pendingMinor(t.app, creator.id)).toBe(1200);
    // The receipt is for a card payment, with the way back to the chat.
    await t.app.jobs.runDue();
    const mail = await lastMailTo(t.app, buyer.email);
    expect(mail?.subject).toBe(`Your Atelier card payment #${pending.order_id}`);
    expect(mail?.text).toContain(`/dashboard/chat?chat=${chatId}`);
    expect(mail?.text).not.toMatch(/deposit/i);
    const history = (await buyer.client.get('/api/deposit/history')).json().payload;
    expect(history.find((d: { id: number }) => d.id === pending.order_id)).toMatchObject({
      payment_method: 'Card payment for a chat image',
      status: 'success',
    });
  });

  it('issue 18 conformance: a locked image without a file asks for the image (not "Please write a message.")', async () => {
    const { creator, chatId } = await dealIn('generating');
    const askForImage = { attachment: ['Attach the image to lock: a locked message is the finished image itself.'] };
    const forms = [
      multipart({ is_locked: '1' }),
      multipart({ is_locked: '1', message: 'Here it is' }),
      // A checkbox's yes, and a form whose file input was left empty (the part is sent with no bytes).
      multipart({ is_locked: 'on' }),
      multipart({ is_locked: '1' }, { name: '', type: 'application/octet-stream', data: Buffer.alloc(0) }),
    ];
    for (const form of forms) {
      const res = await sendChatForm(creator.client, chatId, form);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual(askForImage);
    }
    // A JSON body cannot carry the image at all.
    for (const body of [{ is_locked: 1 }, { is_locked: true, message: '' }, { is_locked: '1', message: 'Here it is' }]) {
      const res = await sendChat(creator.client, chatId, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual(askForImage);
    }
    // Nothing was sent: the deal still waits for the image.
    expect(await statusOf(creator.client, chatId)).toBe('generating');
  });
});

describe('hole 5: no provider call inside a database transaction', () => {
  it('hole 5: the card unlock and Add Funds ask the provider only once their payment is committed', async () => {
    const provider = cardProviderOf(t.app);
    const original = provider.startCheckout.bind(provider);
    const seen: string[] = [];
    // The provider looks the payment up from outside, as its webhook would: inside an open transaction
    // the row is not committed yet (PostgreSQL) or the database is held by it (PGlite, one connection).
    provider.startCheckout = async (deposit, method) => {
      const lookup = t.app.db.select({ status: deposits.status }).from(deposits).where(eq(deposits.id, deposit.id));
      const found = await Promise.race([lookup, new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 3000))]);
      seen.push(found === 'held' ? 'database held by a transaction' : (found[0]?.status ?? 'not committed'));
      return original(deposit, method);
    };
    try {
      const { buyer, chatId, imageId } = await dealIn('waiting_payment', 10);
      const unlock = await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: imageId });
      expect(unlock.json().payload).toMatchObject({ status: 'Pending', payment_type: 'widget' });
      const checkout = await buyer.client.post('/api/deposit/checkout', { amount: 25, currency: 'EUR', payment_method: 'sandbox-card' });
      expect(checkout.statusCode).toBe(200);
      expect(seen).toEqual(['processing', 'processing']);
    } finally {
      provider.startCheckout = original;
    }
  });

  it('hole 5: a refused provider start fails the payment it was for, and the buyer may try again', async () => {
    const provider = cardProviderOf(t.app);
    const original = provider.startCheckout.bind(provider);
    provider.startCheckout = async () => {
      throw new Error('provider unavailable');
    };
    const { buyer, chatId, imageId } = await dealIn('waiting_payment', 10);
    try {
      const unlock = await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: imageId });
      expect(unlock.statusCode).toBe(409);
      expect(unlock.json().message).toBe('The card payment could not be started. Please try again.');
    } finally {
      provider.startCheckout = original;
    }
    const [failed] = await t.app.db.select().from(deposits).where(eq(deposits.userId, buyer.id));
    expect(failed).toMatchObject({ status: 'failed', errorMessage: 'The card payment could not be started.' });
    const again = await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: imageId });
    expect(again.json().payload).toMatchObject({ status: 'Pending', payment_type: 'widget' });
    expect(again.json().payload.order_id).not.toBe(failed!.id);
    // Asking once more while that payment waits reuses it: one card payment per image.
    const third = await buyer.client.post(`/api/chat/${chatId}/unlock`, { message_id: imageId });
    expect(third.json().payload.order_id).toBe(again.json().payload.order_id);
    expect(third.json().payload.widget_data).toEqual(again.json().payload.widget_data);
  });
});
