import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { products, users } from './schema';

/**
 * The one 'visible product' rule (issue 18: it was written out in eight places): a product the public
 * may see, buy, review, favourite or ask about is published, and its author still has an account.
 */

/** As a condition on `products` joined with its author in `users`. */
export const visibleProductWhere: SQL = and(eq(products.status, 'published'), isNull(users.deletedAt))!;

/** As a check of a loaded row. */
export function isVisibleProduct(row: { status: string; authorDeletedAt: Date | string | null }): boolean {
  return row.status === 'published' && row.authorDeletedAt === null;
}
