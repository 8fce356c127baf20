/**
 * Chat and notification tables (migration 0010_chat). A chat joins two people once (a unique index on
 * the unordered pair); `status` follows features/chat/chat-states.ts.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { EarningsLineState } from './commerce-schema';
import { products, users } from './core-schema';
import { jsonb } from './json-column';

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const userRef = (name: string) =>
  bigint(name, { mode: 'number' })
    .notNull()
    .references(() => users.id);

export const chats = pgTable(
  'chats',
  {
    id: id(),
    /** Who opened the conversation (the buyer in a deal). */
    senderId: userRef('sender_id'),
    /** Who was contacted (the creator in a deal: only they propose prices and send locked images). */
    recipientId: userRef('recipient_id'),
    status: text('status').notNull().default('active'),
    /** The proposed (then agreed) price in EUR cents, while a deal runs. */
    dealPriceMinor: bigint('deal_price_minor', { mode: 'number' }),
    /** Counts the deal's moves (migration 0017): an expiry job acts only on the wait it was made for. */
    dealStep: integer('deal_step').notNull().default(0),
    blockedBySender: boolean('blocked_by_sender').notNull().default(false),
    blockedByRecipient: boolean('blocked_by_recipient').notNull().default(false),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chats_pair_idx').on(sql`least(${t.senderId}, ${t.recipientId})`, sql`greatest(${t.senderId}, ${t.recipientId})`),
    index('chats_sender_idx').on(t.senderId),
    index('chats_recipient_idx').on(t.recipientId),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    chatId: bigint('chat_id', { mode: 'number' })
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    /** The author; a system message of the deal carries the participant whose step it records. */
    userId: userRef('user_id'),
    /** text | system | product | price_proposal | attachment | locked_image */
    kind: text('kind').notNull().default('text'),
    body: text('body'),
    productId: bigint('product_id', { mode: 'number' }).references(() => products.id),
    /** Private storage key of the attachment (the original of a locked image). */
    attachmentKey: text('attachment_key'),
    attachmentName: text('attachment_name'),
    /** Public storage key of a locked image's blurred, watermarked preview. */
    previewKey: text('preview_key'),
    isLocked: boolean('is_locked').notNull().default(false),
    priceMinor: bigint('price_minor', { mode: 'number' }),
    /** A paid unlock's split, stored by the sale (migration 0036): what the creator earned and the platform's commission. */
    sellerMinor: bigint('seller_minor', { mode: 'number' }),
    commissionMinor: bigint('commission_minor', { mode: 'number' }),
    /** The paid unlock's earnings (migration 0036): none, pending, released, held or refunded; see order_items. */
    earningsState: text('earnings_state').$type<EarningsLineState>().notNull().default('none'),
    settledMinor: bigint('settled_minor', { mode: 'number' }).notNull().default(0),
    /** What moved from available to held earnings while a refund request on this released line is open. */
    heldMinor: bigint('held_minor', { mode: 'number' }).notNull().default(0),
    /**
     * A paid unlock's tax, stored by the sale (migration 0053, issue 33): what the buyer paid (the price,
     * or its net under reverse charge), of which `vatMinor` is VAT owed to `vat:payable:<taxCountry>`.
     */
    paidMinor: bigint('paid_minor', { mode: 'number' }),
    vatMinor: bigint('vat_minor', { mode: 'number' }).notNull().default(0),
    taxCountry: text('tax_country'),
    taxRateBp: integer('tax_rate_bp').notNull().default(0),
    reverseCharge: boolean('reverse_charge').notNull().default(false),
    buyerVatNumber: text('buyer_vat_number'),
    taxEvidence: jsonb('tax_evidence'),
    unlockedAt: timestamp('unlocked_at', { withTimezone: true }),
    /** Set when the paid unlock was refunded (migration 0028): the original then answers 410 to the buyer. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** When the other participant read it; null while unread. */
    readAt: timestamp('read_at', { withTimezone: true }),
    /** When an unread-messages digest mentioned it (one e-mail per batch). */
    digestedAt: timestamp('digested_at', { withTimezone: true }),
    /** Removed by staff after a report (migration 0041): the history shows that it was, not what it said. */
    moderation: text('moderation').$type<'removed'>(),
    createdAt: createdAt(),
  },
  (t) => [index('chat_messages_chat_idx').on(t.chatId, t.id), index('chat_messages_unread_idx').on(t.chatId).where(sql`read_at is null`)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: userRef('user_id'),
    kind: text('kind').notNull(),
    text: text('text').notNull(),
    link: text('link'),
    chatId: bigint('chat_id', { mode: 'number' }).references(() => chats.id, { onDelete: 'cascade' }),
    data: jsonb('data').notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.id), index('notifications_unread_idx').on(t.userId).where(sql`read_at is null`)],
);

/** Per user and kind: whether the bell rings and an e-mail goes out (migration 0047); no row means both on. */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    bell: boolean('bell').notNull().default(true),
    email: boolean('email').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);
