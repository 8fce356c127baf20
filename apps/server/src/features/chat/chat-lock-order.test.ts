import { describe, expect, it } from 'vitest';
import { cardPaidWebhook, chatPerson, multipart, sendChatForm, testPng } from '../../../test/chat';
import { balanceMinor, fund, pendingMinor } from '../../../test/commerce';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { checkLedger, clearingAccountCode, systemAccountId, transfer, userAccountId } from '../ledger';

/**
 * Issue 17 hole 5: one lock order everywhere (domain rows first, ledger accounts last in id order).
 * The card widget's webhook and the balance unlock of the same chat used to take the chat and the
 * buyer's account in opposite orders, which deadlocks on PostgreSQL. This races them with real
 * parallelism (run it with DATABASE_URL; PGlite runs one statement at a time and cannot deadlock).
 */
const t = useTestApp({ registration: true });

const cardPaid = (depositId: number, round: number) => cardPaidWebhook(t.app, depositId, `evt_race_${depositId}_${round}`);

/** Takes the user's whole balance back out (a refund, as far as the ledger is concerned). */
async function drain(userId: number) {
  const balance = await balanceMinor(t.app, userId);
  if (!balance) return;
  await t.app.db.transaction(async (tx) => {
    await transfer(tx, {
      lines: [
        { accountId: await userAccountId(tx, userId), amountMinor: -balance },
        { accountId: await systemAccountId(tx, clearingAccountCode('sandbox')), amountMinor: balance },
      ],
      kind: 'adjustment',
      reason: 'test drain',
    });
  });
}

/** Agrees a 10.00 € deal and sends the locked image; returns its message id. */
async function lockedImage(buyer: TestClient, creator: TestClient, chatId: number, image: Buffer) {
  expect((await creator.post(`/api/chat/${chatId}/messages`, { type: 'price_proposal', amount: 10 })).statusCode).toBe(200);
  expect((await buyer.post(`/api/chat/${chatId}/messages`, { action: 'accept_price' })).statusCode).toBe(200);
  const sent = await sendChatForm(creator, chatId, multipart({ is_locked: '1' }, { name: 'art.png', type: 'image/png', data: image }));
  expect(sent.statusCode).toBe(200);
  return sent.json().payload.id as number;
}

describe('hole 5: lock order', () => {
  it('hole 5: card-widget webhooks and balance unlocks of the same chat in parallel: no deadlock, one charge', async () => {
    // Two creators with two buyers each (a person may send 30 messages a minute).
    const creators = [await chatPerson(t.app), await chatPerson(t.app)];
    const creatorOf = (i: number) => creators[i % 2]!;
    const buyers = [];
    for (let i = 0; i < 4; i++) buyers.push(await chatPerson(t.app));
    const chats = await Promise.all(
      buyers.map(async (b, i) => (await b.client.post('/api/chat', { recipient_id: creatorOf(i).id })).json().payload.id as number),
    );
    const image = await testPng();
    const ROUNDS = 6;
    let creatorExpected = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Each buyer starts a card payment with an empty balance, then gets the money some other way.
      const pending = await Promise.all(
        buyers.map(async (b, i) => {
          await drain(b.id);
          const messageId = await lockedImage(b.client, creatorOf(i).client, chats[i]!, image);
          const start = await b.client.post(`/api/chat/${chats[i]}/unlock`, { message_id: messageId });
          expect(start.json().payload).toMatchObject({ status: 'Pending', payment_type: 'widget' });
          await fund(t.app, b.id, 1000);
          return { buyer: b, chatId: chats[i]!, messageId, depositId: start.json().payload.order_id as number };
        }),
      );
      // The card's webhook and a balance unlock of each chat, all at once.
      const answers = await Promise.all(
        pending.flatMap((p) => [
          cardPaid(p.depositId, round),
          p.buyer.client.post(`/api/chat/${p.chatId}/unlock`, { message_id: p.messageId }),
          cardPaid(p.depositId, round + 100),
          p.buyer.client.post(`/api/chat/${p.chatId}/unlock`, { message_id: p.messageId }),
        ]),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
      creatorExpected += 2 * 800;
      // One charge per image: 10.00 € left each buyer once (the card's 10.00 € and the 10.00 € funded
      // are 20.00 €; 10.00 € stays), and each creator earned 8.00 € per image (pending until it clears).
      for (const p of pending) expect(await balanceMinor(t.app, p.buyer.id)).toBe(1000);
      for (const c of creators) expect(await pendingMinor(t.app, c.id)).toBe(creatorExpected);
      for (const p of pending) {
        const messages = (await p.buyer.client.get(`/api/chat/${p.chatId}/messages`)).json().payload as { id: number; is_locked: boolean }[];
        expect(messages.find((m) => m.id === p.messageId)?.is_locked).toBe(false);
      }
    }
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
