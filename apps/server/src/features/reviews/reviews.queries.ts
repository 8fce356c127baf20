import { ONLY_BUYERS_MAY_REVIEW, REVIEW_EDIT_DAYS, REVIEWS_PAGE_SIZE, type Review, type ReviewSort, type ReviewsMeta, ratingAverage } from '@atelier/shared';
import { and, asc, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, products, reviewReports, reviews, userProducts, users } from '../../db/schema';
import { visibleProductWhere } from '../../db/visibility';
import { AppError, notFound } from '../../lib/app-error';
import { publicUrl } from '../../lib/storage';
import { recordAudit } from '../audit';
import { notify } from '../notifications';

/*
 * Reviews. A product's rating is `rating_sum / rating_count` over its visible reviews, kept on the
 * product row and moved by the same transaction as every review write, edit, delete or hide: a reader
 * never makes the database add up reviews. A buyer is whoever owns the product through an order in
 * status 'success'; a refund (features/refunds) takes the item out of the buyer's owned products and,
 * once every item is refunded, sets the order 'refunded', so it takes the right to review away with it.
 */

const REVIEW_NOT_FOUND = 'This review does not exist.';
const EDIT_WINDOW_MS = REVIEW_EDIT_DAYS * 24 * 60 * 60 * 1000;

type ReviewRow = typeof reviews.$inferSelect;
type AuthorRow = { nickname: string; avatarPath: string | null };
/** Whether the writer's purchase stands, or was refunded (issue 31 item 7). */
type PurchaseMark = { verified: boolean; refunded: boolean };

/** The writer owns the work through a successful order (alone, in a cart or in a pack): a verified purchase. */
const verifiedSql = sql<boolean>`exists (select 1 from ${userProducts} up join ${orders} o on o.id = up.order_id
  where up.user_id = ${reviews.userId} and up.product_id = ${reviews.productId} and o.status = 'success')`;
/** The writer bought the work (or the pack it is) and a refund took it back. */
const refundedSql = sql<boolean>`exists (select 1 from order_items oi join ${orders} o on o.id = oi.order_id
  where o.buyer_id = ${reviews.userId} and (oi.product_id = ${reviews.productId} or oi.pack_id = ${reviews.productId}) and oi.refunded_at is not null)`;
/** Select fields that mark a review's purchase; read them with `purchaseMark`. */
const purchaseFields = { verified: verifiedSql, refundedBuy: refundedSql };
const purchaseMark = (r: { verified: unknown; refundedBuy: unknown }): PurchaseMark => {
  const verified = r.verified === true || r.verified === 't';
  return { verified, refunded: !verified && (r.refundedBuy === true || r.refundedBuy === 't') };
};

/** The purchase mark of one writer's review of one work (after a write). */
async function purchaseMarkOf(db: Db, reviewId: number): Promise<PurchaseMark> {
  const [row] = await db.select(purchaseFields).from(reviews).where(eq(reviews.id, reviewId)).limit(1);
  return row ? purchaseMark(row) : { verified: false, refunded: false };
}

export function toReview(row: ReviewRow, author: AuthorRow, purchase: PurchaseMark): Review {
  return {
    id: Number(row.id),
    product_id: Number(row.productId),
    rating: Number(row.rating),
    text: row.text,
    created_at: row.createdAt.toISOString(),
    edited_at: row.editedAt ? row.editedAt.toISOString() : null,
    author: { nickname: author.nickname, avatar: publicUrl(author.avatarPath) },
    reply: row.replyText !== null && row.replyAt ? { text: row.replyText, created_at: row.replyAt.toISOString() } : null,
    verified_purchase: purchase.verified,
    refunded: purchase.refunded,
  };
}

/** Whether the user owns the product through a successful order (bought alone, in a cart or a pack). */
export async function hasBought(db: Db, userId: number, productId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(userProducts)
    .innerJoin(orders, eq(orders.id, userProducts.orderId))
    .where(and(eq(userProducts.userId, userId), eq(userProducts.productId, productId), eq(orders.status, 'success')))
    .limit(1);
  return row !== undefined;
}

/** A published product by id with its author, or null. */
async function publishedProduct(db: Db, productId: number) {
  const [row] = await db
    .select({ id: products.id, title: products.title, slug: products.slug, authorId: products.authorId, productType: products.productType })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(and(eq(products.id, productId), visibleProductWhere))
    .limit(1);
  return row ?? null;
}

/** Moves the product's kept aggregate by a difference in sum and count (in the caller's transaction). */
async function moveAggregate(tx: Db, productId: number, sumDelta: number, countDelta: number) {
  if (sumDelta === 0 && countDelta === 0) return;
  await tx
    .update(products)
    .set({ ratingSum: sql`${products.ratingSum} + ${sumDelta}`, ratingCount: sql`${products.ratingCount} + ${countDelta}` })
    .where(eq(products.id, productId));
}

const productLink = (p: { slug: string; productType: string }) => `/${p.productType === 'pack' ? 'packs' : 'products'}/${encodeURIComponent(p.slug)}`;

export async function createReview(db: Db, user: AuthorRow & { id: number }, productId: number, input: { rating: number; text: string }): Promise<Review> {
  return db.transaction(async (tx) => {
    const product = await publishedProduct(tx, productId);
    if (!product) throw notFound('This product does not exist or is no longer on sale.');
    if (!(await hasBought(tx, user.id, productId))) throw new AppError('FORBIDDEN', ONLY_BUYERS_MAY_REVIEW);
    const [row] = await tx.insert(reviews).values({ productId, userId: user.id, rating: input.rating, text: input.text }).onConflictDoNothing().returning();
    if (!row) throw new AppError('CONFLICT', 'You have already reviewed this work. Edit your review instead.');
    await moveAggregate(tx, productId, input.rating, 1);
    if (product.authorId !== user.id) {
      await notify(tx, {
        userId: product.authorId,
        kind: 'review_received',
        text: `@${user.nickname} rated “${product.title}” ${input.rating} of 5 stars.`,
        link: `${productLink(product)}#reviews`,
        data: { productId, reviewId: row.id },
      });
    }
    // Only a buyer may write one: the purchase stands.
    return toReview(row, user, { verified: true, refunded: false });
  });
}

/** The review locked for a change by its author within the edit window; anyone else gets 403. */
async function ownReviewForChange(tx: Db, userId: number, reviewId: number): Promise<ReviewRow> {
  const [row] = await tx.select().from(reviews).where(eq(reviews.id, reviewId)).for('update').limit(1);
  if (!row) throw notFound(REVIEW_NOT_FOUND);
  if (row.userId !== userId) throw new AppError('FORBIDDEN', 'Only the author of a review may change or delete it.');
  if (Date.now() - row.createdAt.getTime() > EDIT_WINDOW_MS) {
    throw new AppError('FORBIDDEN', `A review can be changed or deleted for ${REVIEW_EDIT_DAYS} days after it was written.`);
  }
  return row;
}

export async function updateReview(db: Db, user: AuthorRow & { id: number }, reviewId: number, input: { rating: number; text: string }): Promise<Review> {
  return db.transaction(async (tx) => {
    const old = await ownReviewForChange(tx, user.id, reviewId);
    const [row] = await tx.update(reviews).set({ rating: input.rating, text: input.text, editedAt: new Date() }).where(eq(reviews.id, reviewId)).returning();
    // A hidden review is outside the aggregate: its new stars stay outside too.
    if (old.hiddenAt === null) await moveAggregate(tx, old.productId, input.rating - old.rating, 0);
    return toReview(row!, user, await purchaseMarkOf(tx, reviewId));
  });
}

export async function deleteReview(db: Db, userId: number, reviewId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const old = await ownReviewForChange(tx, userId, reviewId);
    await tx.delete(reviews).where(eq(reviews.id, reviewId));
    if (old.hiddenAt === null) await moveAggregate(tx, old.productId, -old.rating, -1);
  });
}

/** The product's author answers a review once; the reviewer hears of it. */
export async function replyToReview(db: Db, userId: number, reviewId: number, text: string): Promise<Review> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ review: reviews, authorId: products.authorId, title: products.title, slug: products.slug, productType: products.productType })
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .where(eq(reviews.id, reviewId))
      .for('update', { of: reviews })
      .limit(1);
    if (!found || found.review.hiddenAt !== null) throw notFound(REVIEW_NOT_FOUND);
    if (found.authorId !== userId) throw new AppError('FORBIDDEN', 'Only the author of this work may reply to its reviews.');
    if (found.review.replyText !== null) throw new AppError('CONFLICT', 'You have already replied to this review.');
    const [row] = await tx.update(reviews).set({ replyText: text, replyAt: new Date() }).where(eq(reviews.id, reviewId)).returning();
    await notify(tx, {
      userId: found.review.userId,
      kind: 'review_replied',
      text: `The author of “${found.title}” replied to your review.`,
      link: `${productLink(found)}#reviews`,
      data: { productId: found.review.productId, reviewId },
    });
    const [author] = await tx.select({ nickname: users.nickname, avatarPath: users.avatarPath }).from(users).where(eq(users.id, row!.userId));
    return toReview(row!, author!, await purchaseMarkOf(tx, reviewId));
  });
}

/** Any signed-in user flags a visible review for staff; a second report by the same user changes nothing. */
export async function reportReview(db: Db, userId: number, reviewId: number, reason: string): Promise<void> {
  const [row] = await db
    .select({ id: reviews.id })
    .from(reviews)
    .where(and(eq(reviews.id, reviewId), isNull(reviews.hiddenAt)))
    .limit(1);
  if (!row) throw notFound(REVIEW_NOT_FOUND);
  await db.insert(reviewReports).values({ reviewId, userId, reason }).onConflictDoNothing();
}

/** Staff hide a review with a reason: out of the list and the aggregate, audited in the same transaction. */
export async function hideReview(db: Db, staffId: number, reviewId: number, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [old] = await tx.select().from(reviews).where(eq(reviews.id, reviewId)).for('update').limit(1);
    if (!old) throw notFound(REVIEW_NOT_FOUND);
    if (old.hiddenAt !== null) throw new AppError('CONFLICT', 'This review is already hidden.');
    await tx.update(reviews).set({ hiddenAt: new Date(), hiddenReason: reason }).where(eq(reviews.id, reviewId));
    await moveAggregate(tx, old.productId, -old.rating, -1);
    await recordAudit(tx, {
      staffId,
      action: 'review.hide',
      subjectType: 'review',
      subjectId: reviewId,
      before: { hidden: false },
      after: { hidden: true, reason },
    });
  });
}

/**
 * A staff decision after a report (features/reports, issue 33): a removed review leaves the list and
 * the aggregate as a hidden one does; a reversed removal brings it back. Runs in the caller's transaction.
 */
export async function setReviewRemoved(tx: Db, reviewId: number, removed: boolean): Promise<void> {
  const [old] = await tx.select().from(reviews).where(eq(reviews.id, reviewId)).for('update').limit(1);
  if (!old || (old.moderation === 'removed') === removed) return;
  if (removed) {
    await tx
      .update(reviews)
      .set({ moderation: 'removed', hiddenAt: old.hiddenAt ?? new Date() })
      .where(eq(reviews.id, reviewId));
    if (old.hiddenAt === null) await moveAggregate(tx, old.productId, -old.rating, -1);
  } else {
    await tx.update(reviews).set({ moderation: null, hiddenAt: null }).where(eq(reviews.id, reviewId));
    await moveAggregate(tx, old.productId, old.rating, 1);
  }
}

const reviewOrder: Record<ReviewSort, SQL[]> = {
  newest: [desc(reviews.createdAt), desc(reviews.id)],
  highest: [desc(reviews.rating), desc(reviews.createdAt), desc(reviews.id)],
  lowest: [asc(reviews.rating), desc(reviews.createdAt), desc(reviews.id)],
};

/** One page of a product's visible reviews, with the kept average and the count per star. */
export async function listReviews(
  db: Db,
  productId: number,
  opts: { page: number; sort: ReviewSort; readerId: number | null; pageSize?: number },
): Promise<{ payload: Review[]; meta: ReviewsMeta; mine: Review | null; canReview: boolean; isAuthor: boolean }> {
  const pageSize = opts.pageSize ?? REVIEWS_PAGE_SIZE;
  const [product] = await db
    .select({ authorId: products.authorId, ratingSum: products.ratingSum, ratingCount: products.ratingCount })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(and(eq(products.id, productId), visibleProductWhere))
    .limit(1);
  if (!product) throw notFound('This product does not exist or is no longer on sale.');
  const visible = and(eq(reviews.productId, productId), isNull(reviews.hiddenAt));
  const byStar = await db.select({ rating: reviews.rating, n: sql<number>`count(*)` }).from(reviews).where(visible).groupBy(reviews.rating);
  const counts = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  for (const r of byStar) counts[Number(r.rating) as 1 | 2 | 3 | 4 | 5] = Number(r.n);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const rows = await db
    .select({ review: reviews, nickname: users.nickname, avatarPath: users.avatarPath, ...purchaseFields })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.userId))
    .where(visible)
    .orderBy(...reviewOrder[opts.sort])
    .limit(pageSize)
    .offset((opts.page - 1) * pageSize);
  let mine: Review | null = null;
  let canReview = false;
  if (opts.readerId !== null) {
    const [own] = await db
      .select({ review: reviews, nickname: users.nickname, avatarPath: users.avatarPath, ...purchaseFields })
      .from(reviews)
      .innerJoin(users, eq(users.id, reviews.userId))
      .where(and(eq(reviews.productId, productId), eq(reviews.userId, opts.readerId)))
      .limit(1);
    mine = own ? toReview(own.review, own, purchaseMark(own)) : null;
    canReview = !own && (await hasBought(db, opts.readerId, productId));
  }
  return {
    payload: rows.map((r) => toReview(r.review, r, purchaseMark(r))),
    meta: {
      total,
      pages: Math.ceil(total / pageSize),
      page: opts.page,
      average: ratingAverage(Number(product.ratingSum), Number(product.ratingCount)),
      counts,
    },
    mine,
    canReview,
    isAuthor: opts.readerId !== null && opts.readerId === product.authorId,
  };
}
