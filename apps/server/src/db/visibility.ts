import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { products, users } from './schema';

/**
 * The one 'visible product' rule (issue 18: it was written out in eight places): a product the public
 * may see, buy, review, favourite or ask about is published, and its author still has an account.
 * A pack is for sale only while at least PACK_MIN_ITEMS of its works are (issue 30 finding 2): a work
 * unlisted, hidden or whose author left is no longer sold in it. Issue 33 adds staff decisions after a
 * report: a removed or restricted product, or a work whose creator's profile was removed, is out of
 * the shop, search, packs and sitemap (a restricted one stays in its buyers' library).
 */

/** Fewer works for sale than this and a pack stops selling. */
export const PACK_MIN_ITEMS = 2;

/** A work inside a pack is for sale: the same rule, on the aliases `item` (products) and `item_author` (users). */
const itemForSale = sql`item.status = 'published' and item.moderation is null and item_author.deleted_at is null and item_author.moderation is null`;

/** How many of the pack `packId` (a column or value)'s works are still for sale. */
export function packItemsForSale(packId: SQL | number): SQL<number> {
  return sql<number>`(select count(*)::int from pack_items pi join products item on item.id = pi.product_id
    join users item_author on item_author.id = item.author_id where pi.pack_id = ${packId} and ${itemForSale})`;
}

/** A product that is not a pack, or a pack with enough works still for sale. */
export const packStillSellsWhere: SQL = sql`(${products.productType} <> 'pack' or ${packItemsForSale(sql`${products.id}`)} >= ${PACK_MIN_ITEMS})`;

/** As a condition on `products` joined with its author in `users`. */
export const visibleProductWhere: SQL = and(
  eq(products.status, 'published'),
  isNull(users.deletedAt),
  isNull(products.moderation),
  isNull(users.moderation),
  packStillSellsWhere,
)!;

/**
 * The same on `products` alone, the author checked as an anti-join (the catalogue's lists: products
 * drive the plan, never one index probe per author under a LIMIT).
 */
export const visibleProductAloneWhere: SQL = and(
  eq(products.status, 'published'),
  isNull(products.moderation),
  sql`not exists (select 1 from ${users} where ${users.id} = ${products.authorId} and (${users.deletedAt} is not null or ${users.moderation} is not null))`,
  packStillSellsWhere,
)!;

/** As a check of a loaded row (a pack's works are checked apart, by `packItemsForSale`). */
export function isVisibleProduct(row: {
  status: string;
  authorDeletedAt: Date | string | null;
  moderation?: string | null;
  authorModeration?: string | null;
}): boolean {
  return row.status === 'published' && row.authorDeletedAt === null && !row.moderation && !row.authorModeration;
}

/** A chat message staff removed after a report: its history keeps the place, not the content. */
export function isRemovedMessage(row: { moderation?: string | null }): boolean {
  return row.moderation === 'removed';
}

/** Staff removed it: what a chat shows instead of the message. */
export const REMOVED_MESSAGE_TEXT = 'This message was removed by staff after a report.';
