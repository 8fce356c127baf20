import { DISCOUNT_FLOOR_MINOR, formatPrice, minorToAmount } from '@atelier/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { discounts, orderDiscounts, products } from '../../db/schema';
import { validationError } from '../../lib/app-error';

/**
 * The discount rules (issue 34): which discount a bought line gets, at what price, and the use it
 * takes. A creator's discount covers their own works (a platform code: platform-owned works);
 * `product_ids` narrows it, empty means all. A line gets the lowest price among the code given (when
 * it covers the line) and the automatic sales running now. The purchase passes the discounted price
 * into the sale path as the line's price, so the commission, the creator's share and any VAT are
 * computed on what the buyer pays; `order_discounts` keeps the list price, the code and the amount.
 */

export type DiscountRow = typeof discounts.$inferSelect;

/**
 * What a line needs for pricing: the bought product (an item, a prompt, a pack). `onSale` is false
 * when the purchase's own read found no sale running for its owner (runningSaleOfOwnerSql): with no
 * code either, pricing then asks nothing more.
 */
export type PricedLine = { id: number; title: string; priceMinor: number; authorId: number; platformOwned: boolean; onSale?: boolean };

/** The discount a line got. */
export type AppliedDiscount = {
  productId: number;
  discountId: number;
  code: string;
  automatic: boolean;
  listPriceMinor: number;
  discountMinor: number;
  /** It has max_uses: the purchase takes a counted use (takeUses). */
  limited: boolean;
  kind: 'percent' | 'fixed';
  value: number;
  endsAt: Date | null;
};

/** The price after a discount: a percent takes the floor of its share; never below 0.50 €, and a price at or below that stays. Same rule as SQL's discount_price (0044). */
export function discountedPrice(listMinor: number, kind: 'percent' | 'fixed', value: number): number {
  if (listMinor <= DISCOUNT_FLOOR_MINOR) return listMinor;
  const off = kind === 'percent' ? Math.floor((listMinor * value) / 100) : value;
  return Math.max(DISCOUNT_FLOOR_MINOR, listMinor - off);
}

/** Whose discounts cover a line: its creator's, or (0) the platform's for a platform-owned work. */
export const ownerKey = (line: Pick<PricedLine, 'authorId' | 'platformOwned'>) => (line.platformOwned ? 0 : line.authorId);

export function covers(d: Pick<DiscountRow, 'creatorId' | 'productIds'>, line: PricedLine): boolean {
  return (d.creatorId ?? 0) === ownerKey(line) && (d.productIds.length === 0 || d.productIds.map(Number).includes(line.id));
}

const day = (d: Date) => d.toISOString().slice(0, 10);

export type DiscountState = 'active' | 'scheduled' | 'expired' | 'paused' | 'used_up';

export function discountState(d: Pick<DiscountRow, 'paused' | 'maxUses' | 'uses' | 'startsAt' | 'endsAt'>, now = new Date()): DiscountState {
  if (d.paused) return 'paused';
  if (d.endsAt && d.endsAt <= now) return 'expired';
  if (d.maxUses !== null && d.uses >= d.maxUses) return 'used_up';
  if (d.startsAt && d.startsAt > now) return 'scheduled';
  return 'active';
}

/** The sentence a buyer reads when a code cannot be used (422 on `discount_code`). */
export const CODE_MESSAGES = {
  unknown: (code: string) => `The discount code ${code} does not exist.`,
  otherCreator: (code: string) => `The discount code ${code} is for another creator's works, not for what you are buying.`,
  notCovered: (code: string) => `The discount code ${code} does not cover what you are buying.`,
  expired: (code: string, at: Date) => `The discount code ${code} expired on ${day(at)}.`,
  scheduled: (code: string, at: Date) => `The discount code ${code} is not valid yet: it starts on ${day(at)}.`,
  paused: (code: string) => `The discount code ${code} is paused by its creator.`,
  usedUp: (code: string) => `The discount code ${code} has been used up.`,
};

function codeProblem(d: DiscountRow, now: Date): string | null {
  const state = discountState(d, now);
  if (state === 'paused') return CODE_MESSAGES.paused(d.code);
  if (state === 'expired') return CODE_MESSAGES.expired(d.code, d.endsAt!);
  if (state === 'used_up') return CODE_MESSAGES.usedUp(d.code);
  if (state === 'scheduled') return CODE_MESSAGES.scheduled(d.code, d.startsAt!);
  return null;
}

/** A running automatic sale, in SQL (the same window the rules check). */
const runningSale = sql`${discounts.automatic} and not ${discounts.paused}
  and (${discounts.startsAt} is null or ${discounts.startsAt} <= now()) and (${discounts.endsAt} is null or ${discounts.endsAt} > now())
  and (${discounts.maxUses} is null or ${discounts.uses} < ${discounts.maxUses})`;

/** Whether an automatic sale of this owner (a creator's id, 0: the platform's) runs now, in SQL, for a purchase's read of what it buys. */
export const runningSaleOfOwnerSql = (owner: SQL): SQL =>
  sql`exists (select 1 from ${discounts} where coalesce(${discounts.creatorId}, 0) = ${owner} and ${runningSale})`;

/**
 * Prices the lines: one query reads the given code (any state, so a refusal can say why) and the
 * running sales of the lines' owners. Throws a 422 on `field` when the code cannot be used for them.
 * Returns each line's price and the discounts applied (none: an empty list, the prices unchanged).
 */
export async function priceLines(
  db: Db,
  lines: PricedLine[],
  code: string | undefined,
  field = 'discount_code',
): Promise<{ prices: Map<number, number>; applied: AppliedDiscount[] }> {
  const prices = new Map(lines.map((l) => [l.id, l.priceMinor]));
  if (!lines.length || (!code && lines.every((l) => l.onSale === false))) return { prices, applied: [] };
  const owners = [...new Set(lines.map(ownerKey))];
  const rows = await db
    .select()
    .from(discounts)
    .where(and(inArray(sql`coalesce(${discounts.creatorId}, 0)`, owners), code ? sql`(${discounts.code} = ${code} or (${runningSale}))` : runningSale));
  const now = new Date();
  const given = code ? rows.filter((d) => d.code === code) : [];
  if (code) {
    const covering = given.filter((d) => lines.some((l) => covers(d, l)));
    if (!covering.length) {
      if (given.length) throw validationError({ [field]: CODE_MESSAGES.notCovered(code) });
      // Not among these creators' codes: someone else's, or no code at all.
      const [elsewhere] = await db.select({ id: discounts.id }).from(discounts).where(eq(discounts.code, code)).limit(1);
      throw validationError({ [field]: elsewhere ? CODE_MESSAGES.otherCreator(code) : CODE_MESSAGES.unknown(code) });
    }
    for (const d of covering) {
      const problem = codeProblem(d, now);
      if (problem) throw validationError({ [field]: problem });
    }
  }
  const sales = rows.filter((d) => d.automatic && discountState(d, now) === 'active');
  const applied: AppliedDiscount[] = [];
  for (const line of lines) {
    let best: { d: DiscountRow; price: number } | null = null;
    for (const d of [...given, ...sales]) {
      if (!covers(d, line)) continue;
      const price = discountedPrice(line.priceMinor, d.kind, Number(d.value));
      if (price < (best?.price ?? line.priceMinor)) best = { d, price };
    }
    if (!best) continue;
    prices.set(line.id, best.price);
    applied.push({
      productId: line.id,
      discountId: best.d.id,
      code: best.d.code,
      automatic: best.d.code !== code,
      listPriceMinor: line.priceMinor,
      discountMinor: line.priceMinor - best.price,
      limited: best.d.maxUses !== null,
      kind: best.d.kind,
      value: Number(best.d.value),
      endsAt: best.d.endsAt,
    });
  }
  return { prices, applied };
}

/**
 * Takes one use of each applied discount that has `max_uses`, in the purchase's transaction and
 * before the ledger's accounts (domain rows first): the row lock queues racing purchases, and the
 * condition is checked again on the row as committed, so `max_uses` holds exactly. A discount
 * without `max_uses` is not locked at all (a busy sale does not queue its buyers).
 */
export async function takeUses(tx: Db, applied: AppliedDiscount[], field = 'discount_code'): Promise<void> {
  const ids = [...new Set(applied.filter((a) => a.limited).map((a) => a.discountId))].sort((a, b) => a - b);
  for (const id of ids) {
    const [taken] = await tx
      .update(discounts)
      .set({ uses: sql`${discounts.uses} + 1` })
      .where(and(eq(discounts.id, id), sql`(${discounts.maxUses} is null or ${discounts.uses} < ${discounts.maxUses})`))
      .returning({ id: discounts.id });
    if (!taken) {
      const a = applied.find((x) => x.discountId === id)!;
      throw validationError({
        [field]: a.automatic ? 'The sale on this work has just reached its last use; please try again at the list price.' : CODE_MESSAGES.usedUp(a.code),
      });
    }
  }
}

/** Keeps, with the order, what each discount took off (same transaction as the sale). */
export async function recordOrderDiscounts(tx: Db, orderId: number, applied: AppliedDiscount[]): Promise<void> {
  if (!applied.length) return;
  await tx.insert(orderDiscounts).values(
    applied.map((a) => ({
      orderId,
      productId: a.productId,
      discountId: a.discountId,
      code: a.code,
      automatic: a.automatic,
      listPriceMinor: a.listPriceMinor,
      discountMinor: a.discountMinor,
    })),
  );
}

/** The discounts of these orders, by order id, for the order answers and the receipt. */
export async function discountsOfOrders(db: Db, orderIds: number[]) {
  if (!orderIds.length) return new Map<number, (typeof orderDiscounts.$inferSelect & { title: string })[]>();
  const rows = await db
    .select({ row: orderDiscounts, title: products.title })
    .from(orderDiscounts)
    .innerJoin(products, eq(products.id, orderDiscounts.productId))
    .where(inArray(orderDiscounts.orderId, orderIds));
  const out = new Map<number, (typeof orderDiscounts.$inferSelect & { title: string })[]>();
  for (const r of rows) out.set(r.row.orderId, [...(out.get(r.row.orderId) ?? []), { ...r.row, title: r.title }]);
  return out;
}

/** A receipt's or statement's words for one discounted line. */
export function discountLine(d: { title: string; code: string; automatic: boolean; listPriceMinor: number; discountMinor: number }): string {
  const eur = (minor: number) => formatPrice(minorToAmount(minor), '€');
  return `${d.title}: list price ${eur(Number(d.listPriceMinor))}, ${d.automatic ? 'sale' : `code ${d.code}`} −${eur(Number(d.discountMinor))}`;
}

/**
 * A product's running sale for product cards and pages, as one JSON column (`{price_minor, ends_at}`
 * or null): the lowest sale price among its owner's automatic discounts that cover it now.
 */
export function productSaleSql(product: { id: SQL | unknown; priceMinor: unknown; authorId: unknown; platformOwned: unknown }): SQL<{
  price_minor: number;
  ends_at: string | null;
} | null> {
  return sql`(select json_build_object('price_minor', discount_price(${product.priceMinor}, d.kind, d.value), 'ends_at', d.ends_at)
    from ${discounts} d
    where d.automatic and not d.paused and coalesce(d.creator_id, 0) = (case when ${product.platformOwned} then 0 else ${product.authorId} end)
      and (d.starts_at is null or d.starts_at <= now()) and (d.ends_at is null or d.ends_at > now())
      and (d.max_uses is null or d.uses < d.max_uses)
      and (cardinality(d.product_ids) = 0 or ${product.id} = any(d.product_ids))
      and discount_price(${product.priceMinor}, d.kind, d.value) < ${product.priceMinor}
    order by discount_price(${product.priceMinor}, d.kind, d.value), d.id limit 1)`;
}
