import { type Cart, type CartItem, minorToAmount, type ProductType, toCurrencyMinor } from '@atelier/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { cartItems, products } from '../../db/schema';
import type { DisplayCurrency } from '../../lib/display-currency';

/** The user's cart priced in the display currency; the total is the sum of the shown prices. */
export async function loadCart(db: Db, userId: number, currency: DisplayCurrency): Promise<Cart & { totalMinor: number; productIds: number[] }> {
  const rows = await db
    .select({
      id: cartItems.id,
      productId: products.id,
      productType: products.productType,
      title: products.title,
      slug: products.slug,
      previewPath: products.previewPath,
      priceMinor: products.priceMinor,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.id));
  let shownTotal = 0;
  const items: CartItem[] = rows.map((r) => {
    const shown = toCurrencyMinor(Number(r.priceMinor), currency);
    shownTotal += shown;
    return {
      id: r.id,
      product_id: r.productId,
      product_type: r.productType as ProductType,
      title: r.title,
      slug: r.slug,
      imageUrl: r.previewPath ? `/storage/${r.previewPath}` : null,
      price: minorToAmount(shown, currency.decimals),
    };
  });
  return {
    items,
    total: minorToAmount(shownTotal, currency.decimals),
    currency: currency.code,
    currencySymbol: currency.symbol,
    totalMinor: rows.reduce((s, r) => s + Number(r.priceMinor), 0),
    productIds: rows.map((r) => r.productId),
  };
}

/** Adds a product once: adding it again keeps the one line. */
export async function addToCart(db: Db, userId: number, productId: number) {
  await db.insert(cartItems).values({ userId, productId }).onConflictDoNothing();
}

/** Removes a line of this user's cart; false when there was none. */
export async function removeFromCart(db: Db, userId: number, itemId: number): Promise<boolean> {
  const gone = await db
    .delete(cartItems)
    .where(and(eq(cartItems.id, itemId), eq(cartItems.userId, userId)))
    .returning({ id: cartItems.id });
  return gone.length > 0;
}

export async function cartProductIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db.select({ id: cartItems.productId }).from(cartItems).where(eq(cartItems.userId, userId)).orderBy(asc(cartItems.id));
  return rows.map((r) => r.id);
}
