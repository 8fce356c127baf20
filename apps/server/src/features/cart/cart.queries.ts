import {
  type Cart,
  type CartItem,
  LICENCE_TIERS,
  type LicenceTier,
  licencePriceMinor,
  minorToAmount,
  type ProductType,
  toCurrencyMinor,
} from '@atelier/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { cartItems, products } from '../../db/schema';
import type { DisplayCurrency } from '../../lib/display-currency';
import { priceLines } from '../discounts';

/**
 * The user's cart priced in the display currency; the total is the sum of the shown prices. Each line
 * at its price now (issue 34): a running sale, or the discount code given, where it covers the line
 * (an unusable code is a 422 on `discount_code`); `list_price` is then the price before it.
 */
export async function loadCart(
  db: Db,
  userId: number,
  currency: DisplayCurrency,
  discountCode?: string,
): Promise<Cart & { totalMinor: number; productIds: number[] }> {
  const rows = await db
    .select({
      id: cartItems.id,
      productId: products.id,
      productType: products.productType,
      title: products.title,
      slug: products.slug,
      previewPath: products.previewPath,
      commercialMinor: products.priceMinor,
      personalPriceMinor: products.personalPriceMinor,
      extendedPriceMinor: products.extendedPriceMinor,
      licenceTier: cartItems.licenceTier,
      authorId: products.authorId,
      platformOwned: products.platformOwned,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.id))
    // Each line at its licence's price (issue 34); a licence the creator stopped offering shows the
    // commercial price here, and the purchase says it is no longer offered.
    .then((found) =>
      found.map((r) => ({
        ...r,
        priceMinor: licencePriceMinor({ ...r, priceMinor: Number(r.commercialMinor) }, r.licenceTier) ?? Number(r.commercialMinor),
      })),
    );
  const { prices } = await priceLines(
    db,
    rows.map((r) => ({ id: r.productId, title: r.title, priceMinor: Number(r.priceMinor), authorId: r.authorId, platformOwned: r.platformOwned })),
    discountCode,
  );
  const priceOf = (r: (typeof rows)[number]) => prices.get(r.productId) ?? Number(r.priceMinor);
  let shownTotal = 0;
  const items: CartItem[] = rows.map((r) => {
    const shown = toCurrencyMinor(priceOf(r), currency);
    shownTotal += shown;
    const discounted = priceOf(r) < Number(r.priceMinor);
    return {
      id: r.id,
      product_id: r.productId,
      product_type: r.productType as ProductType,
      title: r.title,
      slug: r.slug,
      imageUrl: r.previewPath ? `/storage/${r.previewPath}` : null,
      price: minorToAmount(shown, currency.decimals),
      ...(discounted ? { list_price: minorToAmount(toCurrencyMinor(Number(r.priceMinor), currency), currency.decimals) } : {}),
      licence_tier: r.licenceTier,
      licences: LICENCE_TIERS.flatMap((tier) => {
        const minor = r.productType === 'pack' && tier !== 'commercial' ? null : licencePriceMinor({ ...r, priceMinor: Number(r.commercialMinor) }, tier);
        return minor === null ? [] : [{ tier, price: minorToAmount(toCurrencyMinor(minor, currency), currency.decimals) }];
      }),
    };
  });
  return {
    items,
    total: minorToAmount(shownTotal, currency.decimals),
    currency: currency.code,
    currencySymbol: currency.symbol,
    totalMinor: rows.reduce((s, r) => s + priceOf(r), 0),
    productIds: rows.map((r) => r.productId),
  };
}

/** Adds a product once: adding it again keeps the one line, at the licence given last (issue 34). */
export async function addToCart(db: Db, userId: number, productId: number, licenceTier: LicenceTier = 'commercial') {
  await db
    .insert(cartItems)
    .values({ userId, productId, licenceTier })
    .onConflictDoUpdate({ target: [cartItems.userId, cartItems.productId], set: { licenceTier } });
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

/** The licence of each line of the cart (issue 34), by product. */
export async function cartTiers(db: Db, userId: number): Promise<Map<number, LicenceTier>> {
  const rows = await db.select({ id: cartItems.productId, tier: cartItems.licenceTier }).from(cartItems).where(eq(cartItems.userId, userId));
  return new Map(rows.map((r) => [r.id, r.tier]));
}
