/**
 * Refund requests (migration 0028_refunds): a buyer's request to refund an order item or a paid chat
 * unlock. `status` follows features/refunds/refund-states.ts.
 */
import type { RefundReason, RefundStatus } from '@atelier/shared';
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { chatMessages } from './chat-schema';
import { ledgerTransactions, orders } from './commerce-schema';
import { products, users } from './core-schema';

const userRef = (name: string) => bigint(name, { mode: 'number' }).references(() => users.id);

export const refundRequests = pgTable(
  'refund_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    buyerId: userRef('buyer_id').notNull(),
    /** The item's seller (for a platform-owned product, its author); the creator who may answer. */
    creatorId: userRef('creator_id').notNull(),
    /** An order item: order and product; or a chat unlock: the locked image's message. */
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.id),
    productId: bigint('product_id', { mode: 'number' }).references(() => products.id),
    chatMessageId: bigint('chat_message_id', { mode: 'number' }).references(() => chatMessages.id),
    /** What the buyer paid for the item, in EUR cents as charged. */
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    reason: text('reason').$type<RefundReason>().notNull(),
    message: text('message').notNull(),
    status: text('status').$type<RefundStatus>().notNull().default('open'),
    creatorResponse: text('creator_response'),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
    staffNote: text('staff_note'),
    resolvedBy: userRef('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    refundTransactionId: bigint('refund_transaction_id', { mode: 'number' }).references(() => ledgerTransactions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('refund_requests_buyer_idx').on(t.buyerId, t.id), index('refund_requests_creator_idx').on(t.creatorId, t.id)],
);
