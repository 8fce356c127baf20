import { randomBytes } from 'node:crypto';
import {
  amountToMinor,
  CHAT_MESSAGES_PAGE_SIZE,
  chatIdParams,
  chatMessage,
  chatMessagesPage,
  chatMessagesQuery,
  chat as chatSchema,
  formatPrice,
  minorToAmount,
  okEnvelope,
  openChatInput,
} from '@atelier/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { asDb } from '../../db/client';
import { chats, products, users } from '../../db/schema';
import { isRemovedMessage, visibleProductWhere } from '../../db/visibility';
import { AppError, notFound, validationError } from '../../lib/app-error';

import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { enforceRateLimit } from '../../lib/rate-limit';
import { sendStoredFile } from '../../lib/storage';
import { publishEvent } from '../notifications';
import {
  activeUser,
  deliverMessage,
  displayName,
  findChatFor,
  findMessage,
  listChats,
  listMessages,
  markChatRead,
  openChat,
  otherOf,
  toChatMessage,
  touchLastSeen,
} from './chat.queries';
import { chatDealRoutes, checkLockedPrice, DEAL_MESSAGES, dealMove, dealPriceMaxMinor, moveDeal } from './chat-deal.routes';
import { registerUnreadDigest } from './chat-digest';
import { cleanAttachmentName, lockedPreview, sniffAttachment } from './chat-files';
import { checkText, MESSAGES, readJson, readMultipart } from './chat-input';

/** The 410 of an unlocked original whose unlock was refunded. */
const REFUNDED_ORIGINAL = 'This image was refunded: its original is no longer available to you.';

/**
 * The conversations and their messages (issue 11): opening a chat, the list, the pages of messages,
 * sending (text, attachments, and a participant's deal moves, which `chat-deal.routes.ts` carries
 * out), blocking, and the attachments. The deal itself and the unlock live in chat-deal.routes.ts.
 */

/** Sending is limited per user: a person types far slower than this. */
export const CHAT_SEND_LIMIT = { limit: 30, windowSeconds: 60 };

export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  registerUnreadDigest(app);
  const tags = ['chat'];
  // Presence: every chat call by a signed-in user counts as being seen.
  app.addHook('preHandler', async (request) => {
    if (request.user) await touchLastSeen(app.db, request.user.id);
  });
  await app.register(chatDealRoutes);
  const currencyOf = (request: FastifyRequest) => resolveDisplayCurrency(app, requestedCurrency(request));
  async function participantChat(chatId: number, userId: number) {
    const chat = await findChatFor(app.db, chatId, userId);
    if (!chat) throw notFound(MESSAGES.notFound);
    return chat;
  }

  app.post('/chat', { config: guard('verified'), schema: { tags, body: openChatInput, response: { 200: okEnvelope(chatSchema) } } }, async (request) => {
    const me = currentUser(request);
    const body = request.body;
    let recipientId: number;
    let product: { id: number; title: string } | null = null;
    if ('product_id' in body) {
      const [p] = await app.db
        .select({ id: products.id, title: products.title, authorId: products.authorId })
        .from(products)
        .innerJoin(users, eq(users.id, products.authorId))
        .where(and(eq(products.id, body.product_id), visibleProductWhere))
        .limit(1);
      if (!p) throw notFound(MESSAGES.noProduct);
      recipientId = p.authorId;
      product = p;
    } else recipientId = body.recipient_id;
    if (recipientId === me.id) throw validationError({ [product ? 'product_id' : 'recipient_id']: MESSAGES.self });
    if (!(await activeUser(app.db, recipientId))) throw notFound(MESSAGES.noPerson);
    const chatId = await app.db.transaction(async (txRaw) => {
      const tx = asDb(txRaw);
      const { chat } = await openChat(tx, me.id, recipientId);
      if (product) {
        const existing = await tx.query.chatMessages.findFirst({
          where: (m, { and: a, eq: e }) => a(e(m.chatId, chat.id), e(m.kind, 'product'), e(m.productId, product!.id)),
        });
        // The product a conversation is about is its first card (once per product).
        if (!existing)
          await deliverMessage(
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
      return { status: 'OK' as const, payload: items, meta: { next: hasMore ? `/api/chat/${chat.id}/messages?page=${page + 1}` : null } };
    },
  );

  /**
   * A message: JSON `{message}`, a creator's `{type: "price_proposal", amount}`, an answer
   * `{action: "accept_price" | "negotiate_price" | "cancel_deal"}`; or multipart with `message` and/or
   * `attachment` (with `is_locked=1`, the creator's finished image at the agreed price). With e-mail
   * verification on, an unverified user may read but not send (403).
   */
  app.post(
    '/chat/:chatId/messages',
    {
      config: guard('verified'),
      schema: { tags, params: chatIdParams, consumes: ['application/json', 'multipart/form-data'], response: { 200: okEnvelope(chatMessage) } },
    },
    async (request) => {
      const me = currentUser(request);
      const chat = await participantChat(request.params.chatId, me.id);
      await enforceRateLimit(app.db, `chat-send:${me.id}`, CHAT_SEND_LIMIT, 'You are sending messages too fast.');
      const currency = await currencyOf(request);
      const body = request.isMultipart() ? null : readJson(request.body);
      // Leaving a deal stays possible when one side blocked the other: a deal always has an exit.
      if (!(body && 'action' in body && body.action === 'cancel_deal')) {
        const iAmSender = chat.senderId === me.id;
        if (iAmSender ? chat.blockedByRecipient : chat.blockedBySender) throw new AppError('FORBIDDEN', MESSAGES.blockedByOther);
        if (iAmSender ? chat.blockedBySender : chat.blockedByRecipient) throw new AppError('FORBIDDEN', MESSAGES.blockedByMe);
      }

      if (body) {
        const priceMinor = 'type' in body ? amountToMinor(body.amount) : null;
        if (priceMinor !== null) {
          const max = await dealPriceMaxMinor(app.db);
          if (priceMinor > max) throw validationError({ amount: DEAL_MESSAGES.priceAboveMax(formatPrice(minorToAmount(max), '€')) });
        }
        const row = await app.db.transaction(async (txRaw) => {
          const tx = asDb(txRaw);
          const locked = (await findChatFor(tx, chat.id, me.id, { lock: true }))!;
          if ('type' in body) return moveDeal(tx, locked, 'propose_price', me.id, { priceMinor: priceMinor! });
          if ('action' in body) return moveDeal(tx, locked, body.action, me.id);
          const text = checkText(body.message, true)!;
          return deliverMessage(tx, locked, me.id, { kind: 'text', body: text }, 'new_message', `New message from ${await displayName(tx, me.id)}`);
        });
        return ok(toChatMessage(row, me.id, currency));
      }

      const input = await readMultipart(request);
      if (input.isLocked && !input.file) throw validationError({ attachment: MESSAGES.lockedWithoutFile });
      const text = checkText(input.text, !input.file);
      let stored: { key: string; previewKey: string | null; name: string } | null = null;
      if (input.file) {
        const kind = sniffAttachment(input.file.data);
        if (!kind) throw validationError({ attachment: MESSAGES.wrongFile });
        if (input.isLocked && !kind.image) throw validationError({ attachment: MESSAGES.lockedNeedsImage });
        // The deal's state and price are checked before the files are written, and again on the locked row.
        if (input.isLocked) {
          dealMove(chat, 'send_locked_image', me.id);
          checkLockedPrice(chat, input.price);
        }
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
          const tx = asDb(txRaw);
          const locked = (await findChatFor(tx, chat.id, me.id, { lock: true }))!;
          if (input.isLocked && stored) {
            checkLockedPrice(locked, input.price);
            return moveDeal(tx, locked, 'send_locked_image', me.id, { image: { ...stored, text } });
          }
          return deliverMessage(
            tx,
            locked,
            me.id,
            stored ? { kind: 'attachment', body: text, attachmentKey: stored.key, attachmentName: stored.name } : { kind: 'text', body: text },
            'new_message',
            `New message from ${await displayName(tx, me.id)}`,
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
   * to its creator, and to its buyer once paid; until then the buyer has only the public blurred preview.
   */
  app.get(
    '/chat/:chatId/messages/:messageId/attachment',
    { config: guard('user'), compress: false, schema: { tags, params: chatIdParams.extend({ messageId: z.coerce.number().int().positive() }) } },
    async (request, reply) => {
      const me = currentUser(request);
      const chat = await participantChat(request.params.chatId, me.id);
      const message = await findMessage(app.db, chat.id, request.params.messageId);
      const missing = () => notFound('This file was not found.');
      if (!message?.attachmentKey || isRemovedMessage(message)) throw missing();
      if (message.kind === 'locked_image' && message.unlockedAt === null && message.userId !== me.id) throw missing();
      // A refunded unlock (features/refunds): the buyer has their money back and no longer the original.
      if (message.kind === 'locked_image' && message.refundedAt !== null && message.userId !== me.id) throw new AppError('GONE', REFUNDED_ORIGINAL);
      return sendStoredFile(reply, app.storage, message.attachmentKey, {
        disposition: message.kind === 'locked_image' ? 'inline' : 'attachment',
        filename: message.attachmentName ?? undefined,
        notFoundMessage: 'This file was not found.',
      });
    },
  );
};
