/**
 * Discount codes and sales (migration 0044_discounts, issue 34): a creator's codes, platform codes
 * (creator_id null, made by staff), and what a discount took off each bought line.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orders } from './commerce-schema';
import { products, users } from './core-schema';

export const discounts = pgTable(
  'discounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Null: a platform code (staff), for platform-owned works. */
    creatorId: bigint('creator_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    /** In capitals (A–Z, 0–9, -), 4 to 32. */
    code: text('code').notNull(),
    kind: text('kind').$type<'percent' | 'fixed'>().notNull(),
    /** Percent (1–90) or EUR cents. */
    value: bigint('value', { mode: 'number' }).notNull(),
    /** The works it covers; empty: all of the creator's (or all platform-owned) works. */
    productIds: bigint('product_ids', { mode: 'number' }).array().notNull().default(sql`'{}'`),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    maxUses: integer('max_uses'),
    /** The counter max_uses holds (moved only for a discount with max_uses). */
    uses: integer('uses').notNull().default(0),
    automatic: boolean('automatic').notNull().default(false),
    paused: boolean('paused').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('discounts_creator_code_idx').on(sql`coalesce(${t.creatorId}, 0)`, t.code),
    index('discounts_code_idx').on(t.code),
    index('discounts_automatic_idx').on(sql`coalesce(${t.creatorId}, 0)`).where(sql`${t.automatic} and not ${t.paused}`),
  ],
);

export const orderDiscounts = pgTable(
  'order_discounts',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** The bought line: an item, a prompt or a pack. */
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id),
    discountId: bigint('discount_id', { mode: 'number' }).references(() => discounts.id, { onDelete: 'set null' }),
    code: text('code').notNull(),
    automatic: boolean('automatic').notNull(),
    listPriceMinor: bigint('list_price_minor', { mode: 'number' }).notNull(),
    discountMinor: bigint('discount_minor', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.productId] }), index('order_discounts_discount_idx').on(t.discountId)],
);
