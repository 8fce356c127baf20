/**
 * Storefronts (migration 0051_storefronts, issue 34): a creator's headline, banner and links, and the
 * works they feature, in their order.
 */
import { bigint, index, pgTable, primaryKey, smallint, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { products, users } from './core-schema';
import { jsonb } from './json-column';

export const storefronts = pgTable('storefronts', {
  creatorId: bigint('creator_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  headline: text('headline').notNull().default(''),
  /** Public storage key of the wide banner (webp); null: the avatar stands in for it in shared links. */
  bannerPath: text('banner_path'),
  /** Up to 5 `{label, url}`, https only (checked by the shared schema before it is stored). */
  links: jsonb<{ label: string; url: string }[]>('links').notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const storefrontWorks = pgTable(
  'storefront_works',
  {
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** 0 first, up to 5. */
    position: smallint('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.productId] }), unique().on(t.creatorId, t.position), index('storefront_works_product_idx').on(t.productId)],
);
