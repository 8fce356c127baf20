import {
  BASE_CURRENCY_DECIMALS,
  DEFAULT_CURRENCY,
  FALLBACK_CURRENCY_SYMBOL,
  isImagePromptCategory,
  type LicenceTier,
  type Order,
  type Ownership,
  type ProductType,
} from '@atelier/shared';
import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { categories, orderItems, orders, products, productTags, tags, userProducts, users } from '../../db/schema';
import { type DisplayCurrency, displayAmount } from '../../lib/display-currency';
import { discountsOfOrders } from '../discounts';

const orderStatusWire = { success: 'Success', pending: 'Pending', failed: 'Failed', refunded: 'Refunded' } as const;

/** The download call for one bought product: never a public path to the original. */
export const downloadUrl = (orderId: number, productId: number) => `/api/user/media/download?id=${orderId}&product_id=${productId}`;

/** Orders in SPEC §3's shape, newest first; amounts in the display currency. */
export async function listOrders(db: Db, buyerId: number, currency: DisplayCurrency, onlyId?: number): Promise<Order[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(onlyId === undefined ? eq(orders.buyerId, buyerId) : and(eq(orders.buyerId, buyerId), eq(orders.id, onlyId)))
    .orderBy(desc(orders.id))
    .limit(500);
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const items = await db
    .select({
      orderId: orderItems.orderId,
      productId: orderItems.productId,
      priceMinor: orderItems.priceMinor,
      refundedAt: orderItems.refundedAt,
      licenceTier: orderItems.licenceTier,
      upgradedFrom: orderItems.upgradedFrom,
      title: products.title,
      productType: products.productType,
      previewPath: products.previewPath,
      authorNickname: users.nickname,
      tags: productTagNames,
      categoryUrl: productCategoryUrl,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    // Each item's own author (issue 18 bug 8): a pack's items can be by several creators.
    .innerJoin(users, eq(users.id, products.authorId))
    .where(inArray(orderItems.orderId, ids))
    .orderBy(asc(orderItems.orderId), asc(orderItems.position), asc(orderItems.id));
  const discounted = await discountsOfOrders(db, ids);
  return rows.map((o) => {
    const answer = orderAnswer(
      { ...o, createdAtSeconds: Math.floor(o.createdAt.getTime() / 1000), paid: paidCurrencyOf(o) },
      items.filter((i) => i.orderId === o.id),
      currency,
    );
    const taken = discounted.get(o.id);
    return taken ? { ...answer, discounts: taken.map(orderDiscountWire(paidCurrencyOf(o))) } : answer;
  });
}

/** An order's discount as the answer shows it (issue 34), in the currency it was paid in. */
export const orderDiscountWire =
  (paid: DisplayCurrency) => (d: { productId: number; code: string; automatic: boolean; listPriceMinor: number; discountMinor: number }) => ({
    product_id: Number(d.productId),
    code: d.code,
    automatic: d.automatic,
    list_price: displayAmount(Number(d.listPriceMinor), paid),
    discount: displayAmount(Number(d.discountMinor), paid),
  });

/** What an order answer shows of one bought item (the product, its seller's nickname, its tags). */
export type OrderItemRow = {
  productId: number;
  priceMinor: number;
  /** When the item was refunded (features/refunds); absent or null: not refunded. */
  refundedAt?: Date | null;
  title: string;
  productType: string;
  previewPath: string | null;
  authorNickname: string | null;
  tags: string[] | unknown;
  /** The product's category url (productCategoryUrl): tells an image prompt from a text prompt. */
  categoryUrl?: string | null;
  /** The licence the line sold (issue 34) and, for an upgrade line, the one it replaced. */
  licenceTier?: LicenceTier;
  upgradedFrom?: LicenceTier | null;
};

/** The url of a product's category, null without one. */
export const productCategoryUrl = sql<string | null>`(select ${categories.url} from ${categories} where ${categories.id} = ${products.categoryId})`;

/** Tags of a product, sorted by name, as the order answer lists them. */
export const productTagNames = sql<
  string[]
>`coalesce((select array_agg(${tags.name} order by ${tags.name}) from ${productTags} join ${tags} on ${tags.id} = ${productTags.tagId} where ${productTags.productId} = ${products.id}), '{}')`;

/** The ledger's own currency: what an order written before it kept its currency was charged in. */
const LEDGER_CURRENCY: DisplayCurrency = { code: DEFAULT_CURRENCY, symbol: FALLBACK_CURRENCY_SYMBOL, rate: '1', decimals: BASE_CURRENCY_DECIMALS };

/** The currency an order was shown and paid in, at that day's rate (issue 18 bug 7). */
export function paidCurrencyOf(o: { paidCurrency: string | null; paidRate: string | null; paidDecimals: number | null }): DisplayCurrency {
  if (!o.paidCurrency || o.paidRate === null || o.paidDecimals === null) return LEDGER_CURRENCY;
  return { code: o.paidCurrency, symbol: o.paidCurrency, rate: o.paidRate, decimals: o.paidDecimals };
}

/**
 * One order in SPEC §3's shape: the order row and its items in position order. Amounts are in the
 * currency the order was paid in, at that day's rate, so a later rate never reprices it; `today` is
 * the total in the visitor's chosen currency now, only when that is another currency.
 */
export function orderAnswer(
  o: {
    id: number;
    title: string;
    amountMinor: number;
    status: keyof typeof orderStatusWire;
    productType: string;
    createdAtSeconds: number;
    paid: DisplayCurrency;
    taxCountry?: string | null;
    taxRateBp?: number;
    vatMinor?: number;
    reverseCharge?: boolean;
    invoiceNumber?: string | null;
    creditNoteNumber?: string | null;
  },
  items: OrderItemRow[],
  currency: DisplayCurrency,
): Order {
  const price = (minor: number) => displayAmount(Number(minor), o.paid);
  const vat = Number(o.vatMinor ?? 0);
  return {
    tax: {
      country: o.taxCountry ?? null,
      rate: (o.taxRateBp ?? 0) / 100,
      net_minor: Number(o.amountMinor) - vat,
      vat_minor: vat,
      reverse_charge: o.reverseCharge ?? false,
    },
    invoice_number: o.invoiceNumber ?? null,
    // Every order has its invoice; its number may still be on its way (given right after the purchase, see assignInvoiceNumber).
    invoice_url: `/api/orders/${o.id}/invoice.pdf`,
    credit_note_url: o.creditNoteNumber ? `/api/orders/${o.id}/credit-note.pdf` : null,
    id: o.id,
    title: o.title,
    amount: price(o.amountMinor),
    currencyCode: o.paid.code,
    today: currency.code === o.paid.code ? null : { amount: displayAmount(Number(o.amountMinor), currency), currencyCode: currency.code },
    status: orderStatusWire[o.status],
    product_type: o.productType,
    created_at: o.createdAtSeconds,
    items: items.map((i) => ({
      price: price(i.priceMinor),
      product_type: i.productType,
      info: {
        id: i.productId,
        title: i.title,
        doc_url: i.previewPath,
        doc_url_orig: downloadUrl(o.id, i.productId),
        tags: (Array.isArray(i.tags) ? i.tags : []).map((name) => ({ name })),
        authorNickname: i.authorNickname,
        image_prompt: i.productType === 'prompt' && isImagePromptCategory(i.categoryUrl),
      },
      seller: { nickname: i.authorNickname },
      refund_status: i.refundedAt ? 'Refunded' : null,
      licence_tier: i.licenceTier ?? 'commercial',
      upgraded_from: i.upgradedFrom ?? null,
    })),
  } as Order;
}

/** Product ids among `productIds` that the user already owns. */
export async function ownedAmong(db: Db, userId: number, productIds: number[]): Promise<Set<number>> {
  if (!productIds.length) return new Set();
  const rows = await db
    .select({ id: userProducts.productId })
    .from(userProducts)
    .where(and(eq(userProducts.userId, userId), inArray(userProducts.productId, productIds)));
  return new Set(rows.map((r) => r.id));
}

/**
 * The licence a user owns for a work (issue 34), its row locked for an upgrade, with what its line was
 * paid (the credit of a licence no longer offered). Null when they do not own it.
 */
export async function lockOwnedLicence(tx: Db, userId: number, productId: number): Promise<{ tier: LicenceTier; paidMinor: number } | null> {
  const [own] = await tx
    .select({ tier: userProducts.licenceTier, orderId: userProducts.orderId })
    .from(userProducts)
    .where(and(eq(userProducts.userId, userId), eq(userProducts.productId, productId)))
    .for('update');
  if (!own) return null;
  const [paid] = await tx
    .select({ total: sql<string>`coalesce(sum(${orderItems.priceMinor}), 0)` })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orders.buyerId, userId), eq(orderItems.productId, productId), isNull(orderItems.refundedAt), isNull(orderItems.packId)));
  return { tier: own.tier, paidMinor: Number(paid?.total ?? 0) };
}

/** A bought item of a successful (or refunded) order of this buyer, with what is needed to send its file; `refundedAt` set: the route answers 410. */
export async function findDownload(db: Db, buyerId: number, orderId: number, productId: number) {
  const [row] = await db
    .select({
      productId: products.id,
      slug: products.slug,
      title: products.title,
      productType: products.productType,
      originalPath: products.originalPath,
      originalName: products.originalName,
      promptText: products.promptText,
      refundedAt: orderItems.refundedAt,
      moderation: products.moderation,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(and(eq(orders.id, orderId), eq(orders.buyerId, buyerId), inArray(orders.status, ['success', 'refunded']), eq(orderItems.productId, productId)))
    .limit(1);
  return row ? { ...row, productType: row.productType as ProductType } : null;
}

/** Whether the user owns a product (bought alone, in a cart or inside a pack) and the downloads that order gives. */
export async function findOwnership(db: Db, userId: number, productId: number): Promise<Ownership> {
  const [own] = await db
    .select({ orderId: userProducts.orderId, licenceTier: userProducts.licenceTier })
    .from(userProducts)
    .innerJoin(orders, eq(orders.id, userProducts.orderId))
    .where(and(eq(userProducts.userId, userId), eq(userProducts.productId, productId), eq(orders.status, 'success')))
    .limit(1);
  if (!own) return { owned: false, order_id: null, downloads: [] };
  const items = await db
    .select({ productId: orderItems.productId, packId: orderItems.packId, title: products.title })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(and(eq(orderItems.orderId, own.orderId), or(eq(orderItems.productId, productId), eq(orderItems.packId, productId))))
    .orderBy(asc(orderItems.position), asc(orderItems.id));
  const seen = new Set<number>();
  const downloads = items
    .filter((i) => !seen.has(i.productId) && seen.add(i.productId))
    .map((i) => ({ product_id: i.productId, title: i.title, url: downloadUrl(own.orderId, i.productId) }));
  const pack = items.some((i) => i.packId === productId);
  return {
    owned: true,
    order_id: own.orderId,
    downloads,
    licence_tier: own.licenceTier,
    ...(pack ? { download_all_url: packZipUrl(productId) } : {}),
  };
}

export const packZipUrl = (packId: number) => `/api/user/media/download-pack?pack_id=${packId}`;

/**
 * The files an owned pack still gives its buyer (issue 31 item 7): the items of the order that bought
 * it, less those refunded or removed after a report. Null when the user does not own the pack.
 */
export async function findPackFiles(db: Db, userId: number, packId: number) {
  const [own] = await db
    .select({ orderId: userProducts.orderId, title: products.title })
    .from(userProducts)
    .innerJoin(orders, eq(orders.id, userProducts.orderId))
    .innerJoin(products, eq(products.id, userProducts.productId))
    .where(and(eq(userProducts.userId, userId), eq(userProducts.productId, packId), eq(orders.status, 'success'), eq(products.productType, 'pack')))
    .limit(1);
  if (!own) return null;
  const files = await db
    .select({
      productId: products.id,
      title: products.title,
      productType: products.productType,
      originalPath: products.originalPath,
      originalName: products.originalName,
      promptText: products.promptText,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(
      and(
        eq(orderItems.orderId, own.orderId),
        eq(orderItems.packId, packId),
        isNull(orderItems.refundedAt),
        sql`${products.moderation} is distinct from 'removed'`,
      ),
    )
    .orderBy(asc(orderItems.position), asc(orderItems.id));
  return { title: own.title, orderId: own.orderId, files: files.map((f) => ({ ...f, productType: f.productType as ProductType })) };
}
