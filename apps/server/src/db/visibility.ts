import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { products, users } from './schema';

/**
 * The one 'visible product' rule (issue 18: it was written out in eight places): a product the public
 * may see, buy, review, favourite or ask about is published, and its author still has an account.
 * Issue 33 adds staff decisions after a report: a removed or restricted product, or a work whose
 * creator's profile was removed, is out of the shop, search, packs and sitemap (a restricted one stays
 * in its buyers' library).
 */

/** As a condition on `products` joined with its author in `users`. */
export const visibleProductWhere: SQL = and(eq(products.status, 'published'), isNull(users.deletedAt), isNull(products.moderation), isNull(users.moderation))!;

/**
 * The same on `products` alone, the author checked as an anti-join (the catalogue's lists: products
 * drive the plan, never one index probe per author under a LIMIT).
 */
export const visibleProductAloneWhere: SQL = and(
  eq(products.status, 'published'),
  isNull(products.moderation),
  sql`not exists (select 1 from ${users} where ${users.id} = ${products.authorId} and (${users.deletedAt} is not null or ${users.moderation} is not null))`,
)!;

/** As a check of a loaded row. */
export function isVisibleProduct(row: {
  status: string;
  authorDeletedAt: Date | string | null;
  moderation: string | null;
  authorModeration: string | null;
}): boolean {
  return row.status === 'published' && row.authorDeletedAt === null && !row.moderation && !row.authorModeration;
}

/** A chat message staff removed after a report: its history keeps the place, not the content. */
export function isRemovedMessage(row: { moderation?: string | null }): boolean {
  return row.moderation === 'removed';
}

/** Staff removed it: what a chat shows instead of the message. */
export const REMOVED_MESSAGE_TEXT = 'This message was removed by staff after a report.';
