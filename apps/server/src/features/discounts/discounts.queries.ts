import type { CreateDiscountInput, Discount, UpdateDiscountInput } from '@atelier/shared';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { discounts, orderDiscounts, products } from '../../db/schema';
import { notFound, validationError } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/pg-errors';
import { type DiscountRow, discountState } from './pricing';

/** Whose discounts: a creator's (their own works) or the platform's (staff; platform-owned works), null. */
export type DiscountOwner = number | null;

const ownedBy = (owner: DiscountOwner): SQL => (owner === null ? isNull(discounts.creatorId) : eq(discounts.creatorId, owner))!;

/** The works an owner's discount may cover: a creator's own (not platform-owned), or the platform-owned ones. */
const worksOf = (owner: DiscountOwner): SQL =>
  (owner === null ? eq(products.platformOwned, true) : and(eq(products.authorId, owner), eq(products.platformOwned, false)))!;

const usesCount = sql<number>`(select count(distinct ${orderDiscounts.orderId}) from ${orderDiscounts} where ${orderDiscounts.discountId} = ${discounts.id})`;

function toDiscount(d: DiscountRow, uses: number): Discount {
  return {
    id: d.id,
    code: d.code,
    kind: d.kind,
    value: Number(d.value),
    product_ids: d.productIds.map(Number),
    starts_at: d.startsAt?.toISOString() ?? null,
    ends_at: d.endsAt?.toISOString() ?? null,
    max_uses: d.maxUses,
    uses: Math.max(Number(uses), d.uses),
    automatic: d.automatic,
    paused: d.paused,
    state: discountState(d),
    platform: d.creatorId === null,
    created_at: d.createdAt.toISOString(),
  };
}

export async function listDiscounts(db: Db, owner: DiscountOwner): Promise<Discount[]> {
  const rows = await db.select({ d: discounts, uses: usesCount }).from(discounts).where(ownedBy(owner)).orderBy(desc(discounts.id)).limit(500);
  return rows.map((r) => toDiscount(r.d, r.uses));
}

/** Checks the works a discount names (the owner's own) and a fixed amount against their prices. */
async function checkWorks(db: Db, owner: DiscountOwner, input: { kind: 'percent' | 'fixed'; value: number; product_ids: number[] }) {
  const ids = [...new Set(input.product_ids)];
  const works = await db
    .select({ id: products.id, title: products.title, priceMinor: products.priceMinor })
    .from(products)
    .where(and(worksOf(owner), ids.length ? inArray(products.id, ids) : undefined));
  const missing = ids.filter((id) => !works.some((w) => w.id === id));
  if (missing.length) {
    throw validationError({
      product_ids: owner === null ? `Work ${missing[0]} is not a platform-owned work.` : `Work ${missing[0]} is not one of your works.`,
    });
  }
  if (input.kind === 'fixed') {
    const cheapest = works.reduce<(typeof works)[number] | null>((c, w) => (!c || Number(w.priceMinor) < Number(c.priceMinor) ? w : c), null);
    if (cheapest && input.value >= Number(cheapest.priceMinor)) {
      throw validationError({
        value: `A fixed discount must be below the price of each work it covers: "${cheapest.title}" costs ${(Number(cheapest.priceMinor) / 100).toFixed(2)} €.`,
      });
    }
  }
  return ids;
}

export async function createDiscount(db: Db, owner: DiscountOwner, input: CreateDiscountInput): Promise<Discount> {
  const value = input.value;
  const kind = input.kind;
  const productIds = await checkWorks(db, owner, { kind, value, product_ids: input.product_ids });
  try {
    const [row] = await db
      .insert(discounts)
      .values({
        creatorId: owner,
        code: input.code,
        kind,
        value,
        productIds,
        startsAt: input.starts_at ? new Date(input.starts_at) : null,
        endsAt: input.ends_at ? new Date(input.ends_at) : null,
        maxUses: input.max_uses ?? null,
        automatic: input.automatic,
      })
      .returning();
    return toDiscount(row!, 0);
  } catch (err) {
    if (isUniqueViolation(err, 'discounts_creator_code_idx'))
      throw validationError({ code: `You already have a code ${input.code}. Codes are unique, whatever their case.` });
    throw err;
  }
}

/** Pauses or resumes a discount, or changes its dates; another owner's discount is not found. */
export async function updateDiscount(db: Db, owner: DiscountOwner, id: number, input: UpdateDiscountInput): Promise<{ before: Discount; after: Discount }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(discounts)
      .where(and(eq(discounts.id, id), ownedBy(owner)))
      .for('update');
    if (!row) throw notFound('This discount was not found.');
    const startsAt = input.starts_at === undefined ? row.startsAt : input.starts_at ? new Date(input.starts_at) : null;
    const endsAt = input.ends_at === undefined ? row.endsAt : input.ends_at ? new Date(input.ends_at) : null;
    if (startsAt && endsAt && startsAt >= endsAt) throw validationError({ ends_at: 'The end must be after the start.' });
    const [updated] = await tx
      .update(discounts)
      .set({ paused: input.paused ?? row.paused, startsAt, endsAt })
      .where(eq(discounts.id, id))
      .returning();
    const [{ uses } = { uses: 0 }] = await tx.select({ uses: usesCount }).from(discounts).where(eq(discounts.id, id));
    return { before: toDiscount(row, uses), after: toDiscount(updated!, uses) };
  });
}

export async function deleteDiscount(db: Db, owner: DiscountOwner, id: number): Promise<DiscountRow> {
  const [row] = await db
    .delete(discounts)
    .where(and(eq(discounts.id, id), ownedBy(owner)))
    .returning();
  if (!row) throw notFound('This discount was not found.');
  return row;
}
