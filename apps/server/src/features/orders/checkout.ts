import { convertMinor, formatPrice, minorToAmount, type ProductType } from '@atelier/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { cartItems, orderItems, orders, packItems, products, userProducts, users } from '../../db/schema';
import { validationError } from '../../lib/app-error';
import type { DisplayCurrency } from '../../lib/display-currency';
import { accountIds, commissionOf, getCommerceSettings, InsufficientFunds, openTransfer, PLATFORM_REVENUE, postTransfer, type TransferLine } from '../ledger';
import { notify } from '../notifications';
import { ownedAmong } from './orders.queries';

/**
 * The purchase rule. One call runs inside one database transaction: it checks what is bought, moves
 * the price from the buyer's balance to each author (less the platform's commission, which goes to
 * platform revenue; a platform-owned product credits revenue in full), records the order and what the
 * buyer now owns, and takes the products out of the buyer's cart. Any failure rolls everything back.
 */

export const MESSAGES = {
  notFound: 'This product does not exist.',
  unavailable: 'This product is not available for sale.',
  own: 'You cannot buy your own product.',
  owned: 'You already own this product.',
  emptyCart: 'Your cart is empty.',
} as const;

export function shortfallMessage(shortfallMinor: number, currency: DisplayCurrency): string {
  const amount = formatPrice(minorToAmount(convertMinor(shortfallMinor, currency.rate)), currency.symbol);
  return `Your balance is too low: ${amount} is missing. Please add funds to continue.`;
}

export type Sellable = {
  id: number;
  slug: string;
  title: string;
  productType: ProductType;
  priceMinor: number;
  authorId: number;
  platformOwned: boolean;
  previewPath: string | null;
};

/** Products by id with their sale-relevant fields; hidden ones and those of deleted authors flagged. */
export async function loadSellables(db: Db, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db
    .select({
      id: products.id,
      slug: products.slug,
      title: products.title,
      productType: products.productType,
      priceMinor: products.priceMinor,
      authorId: products.authorId,
      platformOwned: products.platformOwned,
      previewPath: products.previewPath,
      status: products.status,
      authorDeletedAt: users.deletedAt,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(inArray(products.id, ids));
  return rows.map((r) => ({ ...r, priceMinor: Number(r.priceMinor), available: r.status === 'published' && r.authorDeletedAt === null }));
}

/** Why this buyer may not buy this product, or null when they may (field errors name `field`). */
export async function saleProblem(db: Db, buyerId: number, product: Awaited<ReturnType<typeof loadSellables>>[number] | undefined): Promise<string | null> {
  if (!product) return MESSAGES.notFound;
  if (!product.available) return MESSAGES.unavailable;
  if (product.authorId === buyerId && !product.platformOwned) return MESSAGES.own;
  if ((await ownedAmong(db, buyerId, [product.id])).has(product.id)) return MESSAGES.owned;
  return null;
}

function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code === '23505' && (e.constraint === constraint || String((e as Error).message ?? '').includes(constraint))) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Splits a pack's price over its items in proportion to their list prices; the cents add up exactly. */
function allocate(totalMinor: number, weights: number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? totalMinor : 0));
  const shares = weights.map((w) => Math.floor((totalMinor * w) / sum));
  let rest = totalMinor - shares.reduce((s, v) => s + v, 0);
  for (let i = 0; rest > 0; i = (i + 1) % shares.length, rest--) shares[i]! += 1;
  return shares;
}

/**
 * Buys `productIds` for the buyer from their balance, in the caller's transaction `tx`.
 * `field` names the request field errors are reported under; `types`, when given, the product types
 * this purchase accepts. Returns the new order's id.
 *
 * Every sale credits the one platform revenue account, and the lock on its row is held until commit,
 * so that lock is what serialises concurrent purchases. Everything that does not move money (checks,
 * the order, what the buyer now owns, the cart, and the caller's own `beforeCharge` work) is therefore
 * done first, and the accounts are locked and charged last, in id order, just before the caller commits.
 */
export async function purchaseProducts(
  tx: Db,
  opts: {
    buyerId: number;
    productIds: number[];
    currency: DisplayCurrency;
    field: string;
    fromCart?: boolean;
    types?: { allowed: ProductType[]; message: string };
    beforeCharge?: (orderId: number) => Promise<void>;
  },
): Promise<number> {
  const { buyerId, field } = opts;
  const ids = [...new Set(opts.productIds)];
  if (!ids.length) throw validationError({ [field]: MESSAGES.emptyCart });
  const found = await loadSellables(tx, ids);
  const bought: Sellable[] = [];
  for (const id of ids) {
    const product = found.find((p) => p.id === id);
    if (product && opts.types && !opts.types.allowed.includes(product.productType)) throw validationError({ [field]: opts.types.message });
    const problem = await saleProblem(tx, buyerId, product);
    if (problem) throw validationError({ [field]: ids.length > 1 && product ? `${product.title}: ${problem}` : problem });
    bought.push(product!);
  }

  const settings = await getCommerceSettings(tx);
  const accounts = await accountIds(tx, { userIds: [buyerId, ...bought.map((p) => p.authorId)], codes: [PLATFORM_REVENUE] });
  const buyerAccount = accounts.byUser.get(buyerId)!;
  const revenue = accounts.byCode.get(PLATFORM_REVENUE)!;
  const total = bought.reduce((s, p) => s + p.priceMinor, 0);
  const lines: TransferLine[] = [{ accountId: buyerAccount, amountMinor: -total }];
  for (const p of bought) {
    const commission = p.platformOwned ? p.priceMinor : commissionOf(p.priceMinor, settings.commission_percent);
    lines.push({ accountId: revenue, amountMinor: commission });
    if (p.priceMinor - commission > 0) lines.push({ accountId: accounts.byUser.get(p.authorId)!, amountMinor: p.priceMinor - commission });
  }
  const transactionId = total > 0 ? await openTransfer(tx, { reason: opts.fromCart ? 'cart purchase' : 'purchase' }) : null;

  const single = bought.length === 1 ? bought[0]! : null;
  const [order] = await tx
    .insert(orders)
    .values({
      buyerId,
      title: single ? single.title : `${bought.length} items`,
      amountMinor: total,
      status: 'success',
      productType: single ? single.productType : 'cart',
      ledgerTransactionId: transactionId,
    })
    .returning({ id: orders.id });
  const orderId = order!.id;

  const rows: (typeof orderItems.$inferInsert)[] = [];
  const alsoOwned: number[] = [];
  for (const p of bought) {
    if (p.productType !== 'pack') {
      rows.push({ orderId, productId: p.id, sellerId: p.authorId, priceMinor: p.priceMinor, position: rows.length });
      continue;
    }
    const contents = await tx
      .select({ id: products.id, priceMinor: products.priceMinor })
      .from(packItems)
      .innerJoin(products, eq(products.id, packItems.productId))
      .where(eq(packItems.packId, p.id))
      .orderBy(asc(packItems.position));
    if (!contents.length) {
      rows.push({ orderId, productId: p.id, sellerId: p.authorId, priceMinor: p.priceMinor, position: rows.length });
      continue;
    }
    const shares = allocate(
      p.priceMinor,
      contents.map((c) => Number(c.priceMinor)),
    );
    contents.forEach((c, i) => {
      rows.push({ orderId, productId: c.id, packId: p.id, sellerId: p.authorId, priceMinor: shares[i]!, position: rows.length });
      alsoOwned.push(c.id);
    });
  }
  await tx.insert(orderItems).values(rows);

  try {
    // The primary key (user, product) makes a concurrent second purchase of the same product fail here.
    await tx.insert(userProducts).values(bought.map((p) => ({ userId: buyerId, productId: p.id, orderId })));
  } catch (err) {
    if (isUniqueViolation(err, 'user_products_pk')) throw validationError({ [field]: MESSAGES.owned });
    throw err;
  }
  if (alsoOwned.length) {
    await tx
      .insert(userProducts)
      .values(alsoOwned.map((productId) => ({ userId: buyerId, productId, orderId })))
      .onConflictDoNothing();
  }
  await tx.delete(cartItems).where(and(eq(cartItems.userId, buyerId), inArray(cartItems.productId, [...ids, ...alsoOwned])));
  if (opts.beforeCharge) await opts.beforeCharge(orderId);

  // Last: lock the accounts and move the money; the caller commits right after.
  try {
    if (transactionId !== null) await postTransfer(tx, transactionId, lines);
  } catch (err) {
    if (err instanceof InsufficientFunds && err.accountId === buyerAccount) {
      throw validationError({ balance: shortfallMessage(err.shortfallMinor, opts.currency) });
    }
    throw err;
  }
  // Each author who earns from this sale hears of it (a platform-owned product earns its author nothing now).
  const earned = new Map<number, string[]>();
  for (const p of bought) {
    const commission = p.platformOwned ? p.priceMinor : commissionOf(p.priceMinor, settings.commission_percent);
    if (p.priceMinor - commission > 0 && p.authorId !== buyerId) earned.set(p.authorId, [...(earned.get(p.authorId) ?? []), p.title]);
  }
  for (const [authorId, titles] of earned) {
    await notify(tx, {
      userId: authorId,
      kind: 'sale_made',
      text: titles.length === 1 ? `You sold "${titles[0]!.slice(0, 80)}".` : `You sold ${titles.length} works.`,
      link: '/dashboard',
      data: { orderId },
    });
  }
  return orderId;
}
