import { randomBytes } from 'node:crypto';
import {
  amountToMinor,
  CHAT_ATTACHMENT_MAX_BYTES,
  CHAT_MESSAGE_MAX_CHARS,
  CHAT_MESSAGES_PAGE_SIZE,
  CHAT_SYSTEM_MESSAGES,
  type ChatMessage,
  type ChatStatus,
  chatIdParams,
  chatMessage,
  chatMessagesPage,
  chatMessagesQuery,
  chatPriceAmount,
  chat as chatSchema,
  type NotificationKind,
  okEnvelope,
  openChatInput,
  sendChatMessageJson,
  unlockInput,
  unlockResult,
} from '@atelier/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { chatMessages, chats, products } from '../../db/schema';
import { AppError, notFound, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { idempotencyKeyOf, runIdempotent } from '../../lib/idempotency';
import { enforceRateLimit } from '../../lib/rate-limit';
import { sendStoredFile } from '../../lib/storage';
import { balanceOf, commissionOf, getCommerceSettings, InsufficientFunds, PLATFORM_REVENUE, systemAccountId, transfer, userAccountId } from '../ledger';
import { notify, publishEvent } from '../notifications';
import { shortfallMessage } from '../orders';
import { registerDepositPurpose, startWidgetPayment } from '../payments';
import {
  activeUser,
  type ChatRow,
  displayName,
  findChatFor,
  findMessage,
  insertMessage,
  listChats,
  listMessages,
  type MessageRow,
  markChatRead,
  openChat,
  setChatStatus,
  toChatMessage,
  touchLastSeen,
} from './chat.queries';
import { registerUnreadDigest, scheduleUnreadDigest } from './chat-digest';
import { cleanAttachmentName, lockedPreview, sniffAttachment } from './chat-files';
import { type ChatEvent, chatStateMessages, nextChatStatus } from './chat-states';

/** Sending is limited per user: a person types far slower than this. */
export const CHAT_SEND_LIMIT = { limit: 30, windowSeconds: 60 };

const MESSAGES = {
  notFound: 'This chat was not found.',
  messageNotFound: 'This message was not found.',
  self: 'You cannot start a chat with yourself.',
  noPerson: 'This person was not found.',
  noProduct: 'This product was not found.',
  empty: 'Please write a message.',
  tooLong: `The message may not be longer than ${CHAT_MESSAGE_MAX_CHARS} characters.`,
  wrongFile: 'Please attach an image (PNG, JPEG, GIF, WebP) or a document (PDF, DOC, DOCX, ZIP).',
  tooLarge: `The attachment may be at most ${CHAT_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.`,
  lockedNeedsImage: 'A locked attachment must be an image.',
  blockedByOther: 'You cannot send messages in this chat: this person has blocked you.',
  blockedByMe: 'You blocked this person. Unblock them to send messages.',
  ownImage: 'This is your own image.',
} as const;

const chatLink = (chatId: number) => `/dashboard/chat?chat=${chatId}`;
const roleOf = (chat: ChatRow, userId: number) => (chat.recipientId === userId ? 'creator' : 'buyer');
const otherOf = (chat: ChatRow, userId: number) => (chat.senderId === userId ? chat.recipientId : chat.senderId);

/** The status after a deal step, or a 409 naming why not (checked on the locked chat row). */
function advance(chat: ChatRow, event: ChatEvent, userId: number): ChatStatus {
  const next = nextChatStatus(chat.status as ChatStatus, event, roleOf(chat, userId));
  if ('refused' in next) throw new AppError('CONFLICT', next.refused === 'role' ? chatStateMessages.wrongRole(event) : chatStateMessages.wrongState);
  return next.to;
}

type Outgoing = { text: string | null; file: { data: Buffer; name: string | undefined } | null; isLocked: boolean; price: number | null };

/** Reads a multipart message: fields `message`, `is_locked`, `price` and one file `attachment`. */
async function readMultipart(request: FastifyRequest): Promise<Outgoing> {
  const out: Outgoing = { text: null, file: null, isLocked: false, price: null };
  let priceRaw: string | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: CHAT_ATTACHMENT_MAX_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'attachment') {
          await part.toBuffer();
          continue;
        }
        out.file = { data: await part.toBuffer(), name: part.filename };
      } else if (part.fieldname === 'message') out.text = String(part.value);
      else if (part.fieldname === 'is_locked') out.isLocked = ['1', 'true'].includes(String(part.value));
      else if (part.fieldname === 'price') priceRaw = String(part.value);
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw validationError({ attachment: MESSAGES.tooLarge });
    throw err;
  }
  if (priceRaw !== null && priceRaw.trim() !== '') {
    const parsed = chatPriceAmount.safeParse(priceRaw);
    if (!parsed.success) throw validationError({ price: parsed.error.issues[0]?.message ?? 'Please enter a price.' });
    out.price = amountToMinor(parsed.data);
  }
  return out;
}

function checkText(text: string | null, required: boolean): string | null {
  const trimmed = text?.trim() ?? '';
  if (trimmed.length > CHAT_MESSAGE_MAX_CHARS) throw validationError({ message: MESSAGES.tooLong });
  if (!trimmed) {
    if (required) throw validationError({ message: MESSAGES.empty });
    return null;
  }
  return trimmed;
}

/** Writes a message and tells the other participant (a notification, the live stream, a digest later). */
async function deliver(
  tx: Db,
  chat: ChatRow,
  authorId: number,
  values: Omit<Parameters<typeof insertMessage>[1], 'chatId' | 'userId'>,
  kind: NotificationKind,
  text: string,
): Promise<MessageRow> {
  const row = await insertMessage(tx, { chatId: chat.id, userId: authorId, ...values });
  const to = otherOf(chat, authorId);
  await notify(tx, { userId: to, kind, text, link: chatLink(chat.id), chatId: chat.id, data: { messageId: row.id } });
  await publishEvent(tx, { userId: authorId, kind: 'chat_updated', chatId: chat.id, notificationId: null });
  await scheduleUnreadDigest(tx, to);
  return row;
}

/**
 * Pays a locked image from the buyer's balance, on the locked chat and message rows: buyer →
 * creator (price less the commission) and → platform revenue, keyed by the message so it happens
 * once. Paying the image the deal waits for ends the deal. Throws InsufficientFunds when short.
 */
async function payUnlock(tx: Db, lockedChat: ChatRow, row: MessageRow, buyerId: number): Promise<MessageRow> {
  const price = Number(row.priceMinor);
  const settings = await getCommerceSettings(tx);
  const commission = commissionOf(price, settings.commission_percent);
  await transfer(tx, {
    lines: [
      { accountId: await userAccountId(tx, buyerId), amountMinor: -price },
      { accountId: await userAccountId(tx, row.userId), amountMinor: price - commission },
      { accountId: await systemAccountId(tx, PLATFORM_REVENUE), amountMinor: commission },
    ],
    reason: 'chat image unlock',
    idempotency: `chat-unlock:${row.id}`,
  });
  const [unlocked] = await tx.update(chatMessages).set({ unlockedAt: new Date(), isLocked: false }).where(eq(chatMessages.id, row.id)).returning();
  // An older locked image leaves the status as it is.
  if (lockedChat.status === 'waiting_payment') await setChatStatus(tx, lockedChat.id, advance(lockedChat, 'unlock_paid', buyerId), null);
  await deliver(
    tx,
    lockedChat,
    buyerId,
    { kind: 'system', body: CHAT_SYSTEM_MESSAGES.imageUnlocked },
    'image_unlocked',
    `${await displayName(tx, buyerId)} unlocked your image`,
  );
  return unlocked!;
}

/** The card payment's webhook completes the unlock it was started for (once; a paid image stays paid). */
export const CHAT_UNLOCK_PURPOSE = 'chat_unlock';
registerDepositPurpose(CHAT_UNLOCK_PURPOSE, async (tx, deposit) => {
  const chatId = Number(deposit.purpose.chatId);
  const messageId = Number(deposit.purpose.messageId);
  const lockedChat = await findChatFor(tx, chatId, deposit.userId, { lock: true });
  const row = lockedChat ? await findMessage(tx, chatId, messageId, { lock: true }) : null;
  // Already paid (from the balance meanwhile) or gone: the credit stays on the buyer's balance.
  if (!lockedChat || !row || row.unlockedAt || row.priceMinor === null || row.userId === deposit.userId) return;
  await payUnlock(tx, lockedChat, row, deposit.userId);
});

export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  registerUnreadDigest(app);
  const tags = ['chat'];
  // Presence: every chat call by a signed-in user counts as being seen.
  app.addHook('preHandler', async (request) => {
    if (request.user) await touchLastSeen(app.db, request.user.id);
  });
  const currencyOf = (request: FastifyRequest) => resolveDisplayCurrency(app, requestedCurrency(request));
  async function participantChat(chatId: number, userId: number) {
    const chat = await findChatFor(app.db, chatId, userId);
    if (!chat) throw notFound(MESSAGES.notFound);
    return chat;
  }

  app.post('/chat', { config: guard('user'), schema: { tags, body: openChatInput, response: { 200: okEnvelope(chatSchema) } } }, async (request) => {
    const me = currentUser(request);
    const body = request.body;
    let recipientId: number;
    let product: { id: number; title: string } | null = null;
    if ('product_id' in body) {
      const [p] = await app.db
        .select({ id: products.id, title: products.title, authorId: products.authorId })
        .from(products)
        .where(and(eq(products.id, body.product_id), eq(products.status, 'published')))
        .limit(1);
      if (!p) throw notFound(MESSAGES.noProduct);
      recipientId = p.authorId;
      product = p;
    } else recipientId = body.recipient_id;
    if (recipientId === me.id) throw validationError({ [product ? 'product_id' : 'recipient_id']: MESSAGES.self });
    if (!(await activeUser(app.db, recipientId))) throw notFound(MESSAGES.noPerson);
    const chatId = await app.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const { chat } = await openChat(tx, me.id, recipientId);
      if (product) {
        const existing = await tx.query.chatMessages.findFirst({
          where: (m, { and: a, eq: e }) => a(e(m.chatId, chat.id), e(m.kind, 'product'), e(m.productId, product!.id)),
        });
        // The product a conversation is about is its first card (once per product).
        if (!existing)
          await deliver(
            tx,
            chat,
            me.id,
            { kind: 'product', productId: product.id, body: product.title },
            'new_message',
            `${await displayName(tx, me.id)} asks about ${product.title}`,
          );
      }
      return chat.id;
    });
    const [answer] = await listChats(app.db, me.id, await currencyOf(request), chatId);
    return ok(answer!);
  });

  app.get('/chat', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(z.array(chatSchema)) } } }, async (request) => {
    return ok(await listChats(app.db, currentUser(request).id, await currencyOf(request)));
  });

  app.get(
    '/chat/:chatId/messages',
    { config: guard('user'), schema: { tags, params: chatIdParams, querystring: chatMessagesQuery, response: { 200: chatMessagesPage } } },
    async (request) => {
      const me = currentUser(request);
      const chat = await participantChat(request.params.chatId, me.id);
      const { page } = request.query;
      // Opening a chat reads it; the reader's other tabs update their badges.
      const marked = await markChatRead(app.db, chat.id, me.id);
      if (marked) await publishEvent(app.db, { userId: me.id, kind: 'chat_read', chatId: chat.id, notificationId: null });
      const { items, hasMore } = await listMessages(app.db, chat.id, me.id, await currencyOf(request), page, CHAT_MESSAGES_PAGE_SIZE);
      return { status: 'OK' as const, payload: items, links: { next: hasMore ? `/api/chat/${chat.id}/messages?page=${page + 1}` : null } };
    },
  );

  /**
   * A message: JSON `{message}`, a creator's `{type: "price_proposal", amount}`, a buyer's
   * `{action: "accept_price" | "negotiate_price"}`; or multipart with `message` and/or `attachment`
   * (with `is_locked=1` and `price`, the creator's finished image).
   */
  app.post(
    '/chat/:chatId/messages',
    {
      config: guard('user'),
      schema: { tags, params: chatIdParams, consumes: ['application/json', 'multipart/form-data'], response: { 200: okEnvelope(chatMessage) } },
    },
    async (request) => {
      const me = currentUser(request);
      const chat = await participantChat(request.params.chatId, me.id);
      await enforceRateLimit(app.db, `chat-send:${me.id}`, CHAT_SEND_LIMIT, 'You are sending messages too fast.');
      const iAmSender = chat.senderId === me.id;
      if (iAmSender ? chat.blockedByRecipient : chat.blockedBySender) throw new AppError('FORBIDDEN', MESSAGES.blockedByOther);
      if (iAmSender ? chat.blockedBySender : chat.blockedByRecipient) throw new AppError('FORBIDDEN', MESSAGES.blockedByMe);
      const currency = await currencyOf(request);
      const name = await displayName(app.db, me.id);

      if (!request.isMultipart()) {
        const parsed = sendChatMessageJson.safeParse(request.body ?? {});
        if (!parsed.success) throw validationError({ message: MESSAGES.empty });
        const body = parsed.data;
        const row = await app.db.transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          const locked = (await findChatFor(tx, chat.id, me.id, { lock: true }))!;
          if ('type' in body) {
            const priceMinor = amountToMinor(body.amount);
            await setChatStatus(tx, chat.id, advance(locked, 'propose_price', me.id), priceMinor);
            return deliver(tx, locked, me.id, { kind: 'price_proposal', priceMinor }, 'price_proposed', `${name} offered a price`);
          }
          if ('action' in body) {
            const accept = body.action === 'accept_price';
            await setChatStatus(tx, chat.id, advance(locked, accept ? 'accept_price' : 'negotiate_price', me.id));
            const text = accept ? CHAT_SYSTEM_MESSAGES.priceAccepted : CHAT_SYSTEM_MESSAGES.negotiate;
            return deliver(tx, locked, me.id, { kind: 'system', body: text }, accept ? 'price_accepted' : 'price_negotiated', `${name}: ${text}`);
          }
          const text = checkText(body.message, true)!;
          return deliver(tx, locked, me.id, { kind: 'text', body: text }, 'new_message', `New message from ${name}`);
        });
        return ok(toChatMessage(row, me.id, currency));
      }

      const input = await readMultipart(request);
      const text = checkText(input.text, !input.file);
      if (input.isLocked && !input.file) throw validationError({ attachment: MESSAGES.lockedNeedsImage });
      let stored: { key: string; previewKey: string | null; name: string } | null = null;
      if (input.file) {
        const kind = sniffAttachment(input.file.data);
        if (!kind) throw validationError({ attachment: MESSAGES.wrongFile });
        if (input.isLocked && !kind.image) throw validationError({ attachment: MESSAGES.lockedNeedsImage });
        // The deal's state is checked before the files are written, and again on the locked row.
        if (input.isLocked) advance(chat, 'send_locked_image', me.id);
        const stem = randomBytes(12).toString('hex');
        const key = `chat/${chat.id}/${stem}.${kind.ext}`;
        let previewKey: string | null = null;
        if (input.isLocked) {
          let preview: Buffer;
          try {
            preview = await lockedPreview(input.file.data);
          } catch {
            throw validationError({ attachment: MESSAGES.wrongFile });
          }
          previewKey = `chat-previews/${randomBytes(16).toString('hex')}.webp`;
          await app.storage.putPublic(previewKey, preview);
        }
        await app.storage.putPrivate(key, input.file.data);
        stored = { key, previewKey, name: cleanAttachmentName(input.file.name, kind.ext) };
      }
      try {
        const row = await app.db.transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          const locked = (await findChatFor(tx, chat.id, me.id, { lock: true }))!;
          if (input.isLocked && stored) {
            const priceMinor = input.price ?? locked.dealPriceMinor;
            await setChatStatus(tx, chat.id, advance(locked, 'send_locked_image', me.id));
            return deliver(
              tx,
              locked,
              me.id,
              {
                kind: 'locked_image',
                body: text,
                attachmentKey: stored.key,
                previewKey: stored.previewKey,
                attachmentName: stored.name,
                isLocked: true,
                priceMinor,
              },
              'image_ready',
              `${name} sent your image: unlock it to download`,
            );
          }
          return deliver(
            tx,
            locked,
            me.id,
            stored ? { kind: 'attachment', body: text, attachmentKey: stored.key, attachmentName: stored.name } : { kind: 'text', body: text },
            'new_message',
            `New message from ${name}`,
          );
        });
        return ok(toChatMessage(row, me.id, currency));
      } catch (err) {
        if (stored) {
          await app.storage.removePrivate(stored.key);
          if (stored.previewKey) await app.storage.removePublic(stored.previewKey);
        }
        throw err;
      }
    },
  );

  /**
   * Pays a locked image from the buyer's balance through the ledger: the creator gets the price less
   * the commission, the platform the commission, in one transaction with the chat and message rows
   * locked. A second unlock (parallel or later, with or without Idempotency-Key) charges nothing.
   * When the balance is short the answer is a card payment of exactly the price through the
   * widget (`payment_type: "widget"`, `widget_data`, `order_id`); its webhook completes the unlock.
   */
  app.post(
    '/chat/:chatId/unlock',
    { config: guard('user'), schema: { tags, params: chatIdParams, body: unlockInput, response: { 200: okEnvelope(unlockResult) } } },
    async (request) => {
      const me = currentUser(request);
      const chat = await participantChat(request.params.chatId, me.id);
      const message = await findMessage(app.db, chat.id, request.body.message_id);
      if (!message) throw notFound(MESSAGES.messageNotFound);
      if (message.kind !== 'locked_image' || message.priceMinor === null) throw validationError({ message_id: CHAT_SYSTEM_MESSAGES.noPrice });
      if (message.userId === me.id) throw new AppError('FORBIDDEN', MESSAGES.ownImage);
      const currency = await currencyOf(request);
      const answer = await runIdempotent(
        app.db,
        { userId: me.id, key: idempotencyKeyOf(request), scope: `chat/unlock/${chat.id}`, body: request.body },
        async (tx) => {
          const lockedChat = (await findChatFor(tx, chat.id, me.id, { lock: true }))!;
          const row = (await findMessage(tx, chat.id, message.id, { lock: true }))!;
          if (row.unlockedAt) return { status: 'Success' as const, message: toChatMessage(row, me.id, currency) };
          const price = Number(row.priceMinor);
          // SPEC §7: a short balance pays by card, exactly the price; the provider's webhook unlocks.
          if ((await balanceOf(tx, me.id)) < price) {
            const card = await startWidgetPayment(tx, app.config, {
              userId: me.id,
              email: me.email,
              amountMinor: price,
              purpose: { kind: CHAT_UNLOCK_PURPOSE, chatId: chat.id, messageId: row.id },
            });
            return { status: 'Pending' as const, payment_type: 'widget' as const, ...card };
          }
          try {
            const unlocked = await payUnlock(tx, lockedChat, row, me.id);
            return { status: 'Success' as const, message: toChatMessage(unlocked, me.id, currency) as ChatMessage };
          } catch (err) {
            if (err instanceof InsufficientFunds) throw validationError({ balance: shortfallMessage(err.shortfallMinor, currency) });
            throw err;
          }
        },
      );
      return ok(answer);
    },
  );

  for (const [path, blocked] of [
    ['/chat/:chatId/block', true],
    ['/chat/:chatId/unblock', false],
  ] as const) {
    app.post(path, { config: guard('user'), schema: { tags, params: chatIdParams, response: { 200: okEnvelope(chatSchema) } } }, async (request) => {
      const me = currentUser(request);
      const chat = await participantChat(request.params.chatId, me.id);
      await app.db
        .update(chats)
        .set(chat.senderId === me.id ? { blockedBySender: blocked } : { blockedByRecipient: blocked })
        .where(eq(chats.id, chat.id));
      await publishEvent(app.db, { userId: otherOf(chat, me.id), kind: 'chat_updated', chatId: chat.id, notificationId: null });
      const [answer] = await listChats(app.db, me.id, await currencyOf(request), chat.id);
      return ok(answer!, blocked ? 'This person can no longer send you messages.' : 'This person can send you messages again.');
    });
  }

  /**
   * An attachment, to the two participants only (anyone else: 404). A locked image's original goes
   * to its buyer once paid, and to nobody before: until then only the public blurred preview exists.
   */
  app.get(
    '/chat/:chatId/messages/:messageId/attachment',
    { config: guard('user'), compress: false, schema: { tags, params: chatIdParams.extend({ messageId: z.coerce.number().int().positive() }) } },
    async (request, reply) => {
      const me = currentUser(request);
      const chat = await participantChat(request.params.chatId, me.id);
      const message = await findMessage(app.db, chat.id, request.params.messageId);
      const missing = () => notFound('This file was not found.');
      if (!message?.attachmentKey) throw missing();
      if (message.kind === 'locked_image' && (message.unlockedAt === null || message.userId === me.id)) throw missing();
      return sendStoredFile(reply, app.storage, message.attachmentKey, {
        disposition: message.kind === 'locked_image' ? 'inline' : 'attachment',
        filename: message.attachmentName ?? undefined,
        notFoundMessage: 'This file was not found.',
      });
    },
  );
};
