/**
 * Creator bundles (migration 0052_creator_bundles, issue 34): a creator's proposal of a pack of their
 * own works; approved, it points at the pack it was published as.
 */
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { products, users } from './core-schema';

export const creatorBundles = pgTable(
  'creator_bundles',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** The works, in the bundle's order (2–20, the creator's own). */
    productIds: bigint('product_ids', { mode: 'number' }).array().notNull(),
    /** EUR cents: at least 10 % below the sum of the works' prices when proposed. */
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    status: text('status').$type<'pending' | 'approved' | 'rejected' | 'withdrawn'>().notNull().default('pending'),
    /** Why staff rejected it, shown to the creator. */
    reason: text('reason'),
    /** The pack it was published as (set with approval). */
    packId: bigint('pack_id', { mode: 'number' }).references(() => products.id),
    reviewedBy: bigint('reviewed_by', { mode: 'number' }).references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('creator_bundles_creator_idx').on(t.creatorId, t.id), index('creator_bundles_status_idx').on(t.status, t.id)],
);
