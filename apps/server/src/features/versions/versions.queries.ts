import type { ProductVersion } from '@atelier/shared';
import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orderItems, orders, products, productVersions, userProducts, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { enqueue } from '../../lib/jobs';
import { isImageType, type OfferFileType, typeOfFileName } from '../offers';

export type VersionRow = typeof productVersions.$inferSelect;
type ProductRow = typeof products.$inferSelect;

/** The fan-out job of a published version: one per version (its id is the singleton key and the payload). */
export const VERSION_PUBLISHED_JOB = 'versions.notify_buyers';

const NOT_YOURS = 'This work was not found among your listed works.';

/**
 * The creator's own listed work, locked: 404 when it is not theirs (another creator's work, a
 * platform-owned one they sold), 409 when it cannot take a new version (a pack, a draft, removed).
 */
export async function lockOwnWork(tx: Db, creatorId: number, productId: number): Promise<ProductRow> {
  const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('update');
  if (!product || product.authorId !== creatorId || product.platformOwned) throw notFound(NOT_YOURS);
  if (product.productType === 'pack') throw new AppError('CONFLICT', 'A pack has no file of its own: update the works inside it.');
  if (product.moderation === 'removed') throw new AppError('CONFLICT', 'This work was removed after a report and cannot be updated.');
  if (product.status !== 'published' && product.status !== 'hidden') throw new AppError('CONFLICT', 'Only a listed work can get a new version.');
  return product;
}

/** The type of the work's file now: the latest published version's, else its first file's (a prompt's is text). */
export async function currentFileType(db: Db, product: ProductRow): Promise<OfferFileType | null> {
  if (product.productType === 'prompt') return 'txt';
  const [latest] = await db
    .select({ fileType: productVersions.fileType })
    .from(productVersions)
    .where(and(eq(productVersions.productId, product.id), eq(productVersions.status, 'published')))
    .orderBy(desc(productVersions.number))
    .limit(1);
  if (latest?.fileType) return latest.fileType as OfferFileType;
  return typeOfFileName(product.originalName ?? product.originalPath ?? '');
}

/**
 * Version 1, the work as first published, written when its first update arrives (the product row is
 * locked, so two first updates cannot both write it). Answers the next version's number.
 */
async function nextVersionNumber(tx: Db, product: ProductRow, firstType: OfferFileType | null): Promise<number> {
  const [last] = await tx
    .select({ number: productVersions.number })
    .from(productVersions)
    .where(eq(productVersions.productId, product.id))
    .orderBy(desc(productVersions.number))
    .limit(1);
  if (last) return last.number + 1;
  await tx.insert(productVersions).values({
    productId: product.id,
    number: 1,
    status: 'published',
    notes: '',
    fileType: firstType,
    originalPath: product.originalPath,
    originalName: product.originalName,
    previewPath: product.previewPath,
    fileMeta: product.fileMeta,
    promptText: product.promptText,
    createdAt: product.createdAt,
    publishedAt: product.createdAt,
  });
  return 2;
}

export type NewVersion = {
  notes: string;
  fileType: OfferFileType;
  originalPath: string;
  originalName: string;
  previewPath: string;
  fileMeta: VersionRow['fileMeta'];
  promptText: string | null;
};

/**
 * A new version of the creator's locked work: published at once when its file is of the work's
 * current type, else waiting for staff review (one at a time). Answers the version row.
 */
export async function addVersion(tx: Db, product: ProductRow, input: NewVersion): Promise<VersionRow> {
  const [waiting] = await tx
    .select({ id: productVersions.id })
    .from(productVersions)
    .where(and(eq(productVersions.productId, product.id), eq(productVersions.status, 'pending_review')))
    .limit(1);
  if (waiting) throw new AppError('CONFLICT', 'A version of this work is waiting for review: you can ship the next one once staff have decided.');
  const current = await currentFileType(tx, product);
  const number = await nextVersionNumber(tx, product, current);
  const review = current !== input.fileType;
  const [row] = await tx
    .insert(productVersions)
    .values({ productId: product.id, number, status: review ? 'pending_review' : 'published', ...input })
    .returning();
  if (!review) return publishVersion(tx, product, row!);
  return row!;
}

/**
 * Publishes a version (at once, or on staff approval): the product row takes its file, so every
 * download (alone, in a pack's ZIP) gives the latest version; buyers are told by a job after commit.
 * A file of another kind changes the work's type (an image becomes a document, or back).
 */
export async function publishVersion(tx: Db, product: ProductRow, version: VersionRow, reviewedBy?: number): Promise<VersionRow> {
  const prompt = product.productType === 'prompt';
  const type = version.fileType as OfferFileType;
  await tx
    .update(products)
    .set(
      prompt
        ? { promptText: version.promptText ?? '', originalPath: version.originalPath, originalName: version.originalName, fileMeta: version.fileMeta }
        : {
            originalPath: version.originalPath,
            originalName: version.originalName,
            fileMeta: version.fileMeta,
            previewPath: version.previewPath,
            productType: isImageType(type) ? 'image' : 'doc',
          },
    )
    .where(eq(products.id, product.id));
  const [published] = await tx
    .update(productVersions)
    .set({ status: 'published', publishedAt: new Date(), ...(reviewedBy ? { reviewedBy } : {}) })
    .where(eq(productVersions.id, version.id))
    .returning();
  await enqueue(tx, VERSION_PUBLISHED_JOB, { versionId: version.id }, { singletonKey: String(version.id) });
  return published!;
}

export function toVersion(row: VersionRow, forCreator: boolean): ProductVersion {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    notes: row.notes,
    format: row.fileMeta?.format ?? (row.originalName ? (/\.([a-z0-9]+)$/i.exec(row.originalName)?.[1]?.toUpperCase() ?? null) : null),
    created_at: row.createdAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
    review_note: forCreator ? row.reviewNote : null,
  };
}

/**
 * Whether the viewer may read the work's versions: its creator (every version), its buyers and, while
 * it is in the shop, anyone (published versions). Null when the work is not there for this viewer.
 */
export async function versionsAudience(db: Db, productId: number, viewerId: number | null): Promise<{ creator: boolean } | null> {
  const [row] = await db
    .select({
      authorId: products.authorId,
      status: products.status,
      moderation: products.moderation,
      authorDeletedAt: users.deletedAt,
      authorModeration: users.moderation,
      owned: viewerId
        ? sql<boolean>`exists (select 1 from ${userProducts} where ${userProducts.userId} = ${viewerId} and ${userProducts.productId} = ${products.id})`
        : sql<boolean>`false`,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(eq(products.id, productId));
  if (!row) return null;
  if (viewerId !== null && row.authorId === viewerId) return { creator: true };
  if (row.moderation === 'removed') return null;
  const inShop = row.status === 'published' && !row.moderation && !row.authorDeletedAt && !row.authorModeration;
  return inShop || row.owned ? { creator: false } : null;
}

/** A work's versions, newest first: all of them for its creator, the published ones for anyone else. */
export async function listVersions(db: Db, productId: number, forCreator: boolean) {
  const rows = await db
    .select()
    .from(productVersions)
    .where(and(eq(productVersions.productId, productId), forCreator ? undefined : eq(productVersions.status, 'published')))
    .orderBy(desc(productVersions.number));
  const updated = rows.find((r) => r.status === 'published' && r.number > 1);
  return { product_id: productId, updated_at: updated?.publishedAt?.toISOString() ?? null, versions: rows.map((r) => toVersion(r, forCreator)) };
}

/** The buyers a version reaches: whoever owns the work through a successful, unrefunded order (alone or in a pack), never its creator. */
export async function buyersOf(db: Db, productId: number, authorId: number): Promise<{ id: number; email: string; name: string }[]> {
  return db
    .selectDistinct({ id: users.id, email: users.email, name: users.name })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(users, eq(users.id, orders.buyerId))
    .where(
      and(eq(orderItems.productId, productId), eq(orders.status, 'success'), isNull(orderItems.refundedAt), isNull(users.deletedAt), ne(users.id, authorId)),
    )
    .orderBy(asc(users.id));
}

/** Versions waiting for review (the back office queue), oldest first, with their work and creator. */
export async function listVersionsForStaff(db: Db, status: VersionRow['status'] = 'pending_review') {
  const rows = await db
    .select({
      version: productVersions,
      product: { id: products.id, title: products.title, slug: products.slug },
      creator: { id: users.id, nickname: users.nickname },
    })
    .from(productVersions)
    .innerJoin(products, eq(products.id, productVersions.productId))
    .innerJoin(users, eq(users.id, products.authorId))
    .where(eq(productVersions.status, status))
    .orderBy(asc(productVersions.createdAt), asc(productVersions.id))
    .limit(500);
  const productIds = [...new Set(rows.map((r) => r.product.id))];
  // The type each work had before the version: the latest published one below it.
  const earlier = productIds.length
    ? await db
        .select({ productId: productVersions.productId, number: productVersions.number, fileType: productVersions.fileType })
        .from(productVersions)
        .where(and(inArray(productVersions.productId, productIds), eq(productVersions.status, 'published')))
    : [];
  return rows.map((r) => {
    const before = earlier.filter((e) => e.productId === r.product.id && e.number < r.version.number).sort((a, b) => b.number - a.number)[0];
    return { ...r, currentType: before?.fileType ?? null };
  });
}

/** One version with its work, locked in the lock order (product first, then the version): for staff decisions. */
export async function lockVersionForReview(tx: Db, versionId: number) {
  const [seen] = await tx.select({ productId: productVersions.productId }).from(productVersions).where(eq(productVersions.id, versionId));
  if (!seen) throw notFound('This version does not exist.');
  const [product] = await tx.select().from(products).where(eq(products.id, seen.productId)).for('update');
  const [version] = await tx.select().from(productVersions).where(eq(productVersions.id, versionId)).for('update');
  if (!product || !version) throw notFound('This version does not exist.');
  if (version.status !== 'pending_review') throw new AppError('CONFLICT', `This version is ${version.status.replace('_', ' ')}, not waiting for review.`);
  return { product, version };
}
