import {
  CHAT_ONLINE_WINDOW_MS,
  type Chat,
  type ChatMessage,
  type ChatParty,
  type ChatStatus,
  DEFAULT_CURRENCY,
  FALLBACK_CURRENCY_SYMBOL,
  formatPrice,
  minorToAmount,
  type NotificationKind,
} from '@atelier/shared';
import { and, count, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatMessages, chats, products, users } from '../../db/schema';
import { isRemovedMessage, REMOVED_MESSAGE_TEXT } from '../../db/visibility';
import { type DisplayCurrency, displayAmount } from '../../lib/display-currency';
import { publicUrl } from '../../lib/storage';
import { notify, publishEvent } from '../notifications';
import { scheduleUnreadDigest } from './chat-digest';

export type ChatRow = typeof chats.$inferSelect;
export type MessageRow = typeof chatMessages.$inferSelect;
type UserRow = Pick<typeof users.$inferSelect, 'id' | 'nickname' | 'name' | 'surname' | 'avatarPath' | 'hourlyRateMinor' | 'lastSeenAt'>;

const partyColumns = {
  id: users.id,
  nickname: users.nickname,
  name: users.name,
  surname: users.surname,
  avatarPath: users.avatarPath,
  hourlyRateMinor: users.hourlyRateMinor,
  lastSeenAt: users.lastSeenAt,
};

/** Presence: the user was seen by a call in the last 2 minutes. */
export const isOnline = (lastSeenAt: Date | null, now = Date.now()) => lastSeenAt !== null && now - lastSeenAt.getTime() < CHAT_ONLINE_WINDOW_MS;

/** Moves last_seen_at, at most once a minute (one cheap conditional update per call). */
export async function touchLastSeen(db: Db, userId: number): Promise<void> {
  await db.execute(sql`update users set last_seen_at = now() where id = ${userId} and (last_seen_at is null or last_seen_at < now() - interval '1 minute')`);
}

/** The chat if `userId` takes part in it; anyone else gets nothing (the caller answers 404). */
export async function findChatFor(db: Db, chatId: number, userId: number, opts: { lock?: boolean } = {}): Promise<ChatRow | null> {
  const query = db
    .select()
    .from(chats)
    .where(and(eq(chats.id, chatId), or(eq(chats.senderId, userId), eq(chats.recipientId, userId))))
    .limit(1);
  const [row] = opts.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The conversation between two people, opened by `senderId` if there is none yet (one per pair). */
export async function openChat(db: Db, senderId: number, recipientId: number): Promise<{ chat: ChatRow; created: boolean }> {
  const inserted = await db.insert(chats).values({ senderId, recipientId }).onConflictDoNothing().returning();
  if (inserted[0]) return { chat: inserted[0], created: true };
  const [found] = await db
    .select()
    .from(chats)
    .where(
      sql`least(${chats.senderId}, ${chats.recipientId}) = ${Math.min(senderId, recipientId)} and greatest(${chats.senderId}, ${chats.recipientId}) = ${Math.max(senderId, recipientId)}`,
    )
    .limit(1);
  return { chat: found!, created: false };
}

export async function activeUser(db: Db, userId: number) {
  const [row] = await db.select({ id: users.id, deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return row && !row.deletedAt ? row : null;
}

export async function insertMessage(db: Db, values: typeof chatMessages.$inferInsert): Promise<MessageRow> {
  const [row] = await db.insert(chatMessages).values(values).returning();
  await db.update(chats).set({ lastMessageAt: row!.createdAt }).where(eq(chats.id, values.chatId));
  return row!;
}

/** A deal move on the chat row: its new status and price; the step count moves on (it names the wait). */
export const chatLink = (chatId: number) => `/dashboard/chat?chat=${chatId}`;
export const otherOf = (chat: Pick<ChatRow, 'senderId' | 'recipientId'>, userId: number) => (chat.senderId === userId ? chat.recipientId : chat.senderId);

/** Writes a message and tells the other participant (a notification, the live stream, a digest later). */
export async function deliverMessage(
  tx: Db,
  chat: ChatRow,
  authorId: number,
  values: Omit<typeof chatMessages.$inferInsert, 'chatId' | 'userId'>,
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

export async function setDealState(db: Db, chatId: number, status: ChatStatus, dealPriceMinor: number | null): Promise<number> {
  const [row] = await db
    .update(chats)
    .set({ status, dealPriceMinor, dealStep: sql`${chats.dealStep} + 1` })
    .where(eq(chats.id, chatId))
    .returning({ dealStep: chats.dealStep });
  return row!.dealStep;
}

/** A chat by id alone, locked: for the system's own moves (a deal's expiry). */
export async function lockChatById(db: Db, chatId: number): Promise<ChatRow | null> {
  const [row] = await db.select().from(chats).where(eq(chats.id, chatId)).for('update');
  return row ?? null;
}

/** The id of the chat's newest locked image (the one a deal waiting for payment is about), or null. */
export async function newestLockedImageId(db: Db, chatId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.kind, 'locked_image')))
    .orderBy(desc(chatMessages.id))
    .limit(1);
  return row?.id ?? null;
}

/** Marks the other participant's messages read; returns how many were unread. */
export async function markChatRead(db: Db, chatId: number, readerId: number): Promise<number> {
  const rows = await db
    .update(chatMessages)
    .set({ readAt: new Date() })
    .where(and(eq(chatMessages.chatId, chatId), ne(chatMessages.userId, readerId), isNull(chatMessages.readAt)))
    .returning({ id: chatMessages.id });
  return rows.length;
}

function toParty(u: UserRow, currency: DisplayCurrency, now: number): ChatParty {
  return {
    id: u.id,
    nickname: u.nickname,
    first_name: u.name,
    last_name: u.surname,
    avatar: publicUrl(u.avatarPath),
    isOnline: isOnline(u.lastSeenAt, now),
    hourly_rate: displayAmount(Number(u.hourlyRateMinor), currency),
  };
}

/** What the chat list shows as a message's text. */
function previewText(row: Pick<MessageRow, 'kind' | 'body' | 'attachmentName' | 'moderation'>): string | null {
  if (isRemovedMessage(row)) return REMOVED_MESSAGE_TEXT;
  if (row.body) return row.body;
  if (row.kind === 'locked_image') return 'Locked image';
  if (row.kind === 'attachment') return row.attachmentName ?? 'Attachment';
  if (row.kind === 'price_proposal') return 'Price offered';
  if (row.kind === 'product') return 'Product';
  return null;
}

/** The user's chats in the SPEC §3 shape, newest activity first (one id when `onlyId` is given). */
export async function listChats(db: Db, userId: number, currency: DisplayCurrency, onlyId?: number): Promise<Chat[]> {
  const rows = await db
    .select()
    .from(chats)
    .where(and(or(eq(chats.senderId, userId), eq(chats.recipientId, userId)), onlyId ? eq(chats.id, onlyId) : undefined))
    .orderBy(desc(chats.lastMessageAt), desc(chats.id));
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const people = await db
    .select(partyColumns)
    .from(users)
    .where(inArray(users.id, [...new Set(rows.flatMap((r) => [r.senderId, r.recipientId]))]));
  const unread = await db
    .select({ chatId: chatMessages.chatId, n: count() })
    .from(chatMessages)
    .where(and(inArray(chatMessages.chatId, ids), ne(chatMessages.userId, userId), isNull(chatMessages.readAt)))
    .groupBy(chatMessages.chatId);
  const last = await db
    .selectDistinctOn([chatMessages.chatId], {
      chatId: chatMessages.chatId,
      kind: chatMessages.kind,
      body: chatMessages.body,
      attachmentName: chatMessages.attachmentName,
      moderation: chatMessages.moderation,
    })
    .from(chatMessages)
    .where(inArray(chatMessages.chatId, ids))
    .orderBy(chatMessages.chatId, desc(chatMessages.id));
  const now = Date.now();
  return rows.map((r) => {
    const sender = toParty(people.find((p) => p.id === r.senderId)!, currency, now);
    const recipient = toParty(people.find((p) => p.id === r.recipientId)!, currency, now);
    const other = r.senderId === userId ? recipient : sender;
    const unreadCount = Number(unread.find((u) => u.chatId === r.id)?.n ?? 0);
    const lastRow = last.find((m) => m.chatId === r.id);
    const iAmSender = r.senderId === userId;
    return {
      id: r.id,
      status: r.status as ChatStatus,
      sender,
      recipient,
      name: `${other.first_name} ${other.last_name}`.trim() || 'User',
      avatar: other.avatar,
      rate: other.hourly_rate,
      isOnline: other.isOnline,
      unreadCount,
      unread_messages_count: unreadCount,
      last_message: lastRow ? previewText(lastRow) : null,
      last_message_at: r.lastMessageAt.toISOString(),
      blocked_by_me: iAmSender ? r.blockedBySender : r.blockedByRecipient,
      blocked_me: iAmSender ? r.blockedByRecipient : r.blockedBySender,
    };
  });
}

/**
 * A message's price: in the display currency, except a paid image's, which shows what was paid, in
 * euros (an unlock is charged in euros, from the balance or by card), with today's amount in the
 * display currency beside it as a hint (issue 18 bug 7: a past payment is never repriced).
 */
function messagePrice(row: MessageRow, minor: number, currency: DisplayCurrency): NonNullable<ChatMessage['price']> {
  if (row.kind === 'locked_image' && row.unlockedAt !== null) {
    const amount = minorToAmount(minor);
    const today = currency.code === DEFAULT_CURRENCY ? null : { amount: displayAmount(minor, currency), currency: currency.code };
    return { amount, formatted: formatPrice(amount, FALLBACK_CURRENCY_SYMBOL), currency: DEFAULT_CURRENCY, today };
  }
  const amount = displayAmount(minor, currency);
  return { amount, formatted: formatPrice(amount, currency.symbol, currency.decimals), currency: currency.code, today: null };
}

export const attachmentPath = (chatId: number, messageId: number) => `/api/chat/${chatId}/messages/${messageId}/attachment`;

/**
 * A message as `viewerId` sees it. A locked image shows the buyer its public blurred preview until it
 * is paid, then the original through the attachment call; its author sees the original all along.
 */
export function toChatMessage(
  row: MessageRow,
  viewerId: number,
  currency: DisplayCurrency,
  product?: { id: number; slug: string; title: string; previewPath: string | null } | null,
): ChatMessage {
  // Removed by staff after a report (issue 33): the history keeps its place, not its content.
  if (isRemovedMessage(row)) {
    return {
      id: row.id,
      message: REMOVED_MESSAGE_TEXT,
      created_at: row.createdAt.toISOString(),
      user: { id: row.userId },
      type: 'text',
      attachment_url: null,
      attachment_name: null,
      is_locked: false,
      is_preview: false,
      price: null,
      product: null,
    };
  }
  let attachmentUrl: string | null = null;
  let isPreview = false;
  if (row.kind === 'attachment' && row.attachmentKey) attachmentUrl = attachmentPath(row.chatId, row.id);
  if (row.kind === 'locked_image') {
    // Its creator always sees the original (issue 18 bug 12); the buyer once they paid, until it is refunded.
    const original = row.userId === viewerId || (row.unlockedAt !== null && row.refundedAt === null);
    attachmentUrl = original ? attachmentPath(row.chatId, row.id) : publicUrl(row.previewKey);
    isPreview = !original;
  }
  // A paid image shows what its buyer paid (its net under reverse charge) and the VAT its sale stored.
  const paid = row.kind === 'locked_image' && row.unlockedAt !== null;
  const paidMinor = Number(row.paidMinor ?? row.priceMinor);
  const price = row.priceMinor === null ? null : messagePrice(row, paid ? paidMinor : Number(row.priceMinor), currency);
  const text = row.kind === 'price_proposal' && price ? `Price offered: ${price.formatted}` : row.body;
  return {
    id: row.id,
    message: text,
    created_at: row.createdAt.toISOString(),
    user: { id: row.userId },
    type: row.kind,
    attachment_url: attachmentUrl,
    attachment_name: row.attachmentName,
    is_locked: row.kind === 'locked_image' && row.unlockedAt === null,
    is_preview: isPreview,
    price,
    product: product ? { id: product.id, slug: product.slug, title: product.title, preview_url: publicUrl(product.previewPath) } : null,
    tax: paid
      ? {
          country: row.taxCountry,
          rate: row.taxRateBp / 100,
          net_minor: paidMinor - Number(row.vatMinor),
          vat_minor: Number(row.vatMinor),
          reverse_charge: row.reverseCharge,
        }
      : null,
  };
}

async function productsById(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return (
    db
      .select({ id: products.id, slug: products.slug, title: products.title, previewPath: products.previewPath })
      .from(products)
      // A work staff removed after a report (issue 33) leaves the chat history's product cards too.
      .where(and(inArray(products.id, ids), or(isNull(products.moderation), ne(products.moderation, 'removed'))))
  );
}

/** Page `page` of a chat, counted from the newest; each page in time order. */
export async function listMessages(db: Db, chatId: number, viewerId: number, currency: DisplayCurrency, page: number, pageSize: number) {
  const rows = await db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.chatId, chatId))
    .orderBy(desc(chatMessages.id))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  const pageRows = rows.slice(0, pageSize).reverse();
  const cards = await productsById(db, [...new Set(pageRows.map((r) => r.productId).filter((id): id is number => id !== null))]);
  return {
    items: pageRows.map((r) => toChatMessage(r, viewerId, currency, cards.find((p) => p.id === r.productId) ?? null)),
    hasMore: rows.length > pageSize,
  };
}

export async function messageWithCard(db: Db, row: MessageRow, viewerId: number, currency: DisplayCurrency): Promise<ChatMessage> {
  const [card] = row.productId ? await productsById(db, [row.productId]) : [];
  return toChatMessage(row, viewerId, currency, card ?? null);
}

export async function findMessage(db: Db, chatId: number, messageId: number, opts: { lock?: boolean } = {}): Promise<MessageRow | null> {
  const query = db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.id, messageId)))
    .limit(1);
  const [row] = opts.lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function displayName(db: Db, userId: number): Promise<string> {
  const [u] = await db.select({ name: users.name, surname: users.surname }).from(users).where(eq(users.id, userId)).limit(1);
  return `${u?.name ?? ''} ${u?.surname ?? ''}`.trim() || 'User';
}
