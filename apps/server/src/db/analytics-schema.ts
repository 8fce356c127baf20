/**
 * Seller analytics (migration 0030_analytics): views per product per day, and the day's visitor
 * hashes that keep a visitor to one view per product per day (purged once the day is over).
 */
import { bigint, date, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { products } from './core-schema';

export const productViews = pgTable(
  'product_views',
  {
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.day] }), index('product_views_day_idx').on(t.day)],
);

export const productViewVisitors = pgTable(
  'product_view_visitors',
  {
    day: date('day', { mode: 'string' }).notNull(),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** A hash of the visitor (session or address) and the product, salted with the day's salt. */
    visitor: text('visitor').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.productId, t.visitor] })],
);

/** One random salt per day; it goes with its day's visitors, so old hashes can never be matched again. */
export const viewSalts = pgTable('view_salts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
});
