import { amountToMinor, type Bundle, type BundleStatus, bundleMaxPriceMinor, type CreateBundleInput, formatPrice, minorToAmount } from '@atelier/shared';
import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creatorBundles, packItems, products, users } from '../../db/schema';
import { isVisibleProduct, visibleProductWhere } from '../../db/visibility';
import { AppError, notFound, validationError } from '../../lib/app-error';
import { mailHtml, sendMail } from '../../lib/mail';
import { slugify } from '../../lib/text';
import { recordAudit } from '../audit';
import { notify } from '../notifications';
import { type BundleActor, bundleLifecycle, illegalBundleMove } from './bundle-states';

export type BundleRow = typeof creatorBundles.$inferSelect;

const NOT_YOURS = 'This bundle does not exist.';
const euros = (minor: number) => formatPrice(minorToAmount(minor), '€');
const list = (ids: number[]) => ids.join(', ');

/**
 * Why these works at this price cannot be the creator's bundle, by field (null: they can). Each must be
 * the creator's own work (not a pack, not bought out by the platform) and listed in the shop; the price
 * at least 10 % below the works' prices added up, the message naming the highest price allowed.
 */
export async function bundleProblems(db: Db, creatorId: number, ids: number[], priceMinor: number): Promise<{ field: string; message: string } | null> {
  const rows = await db
    .select({ product: products, authorDeletedAt: users.deletedAt, authorModeration: users.moderation })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(inArray(products.id, ids));
  const byId = new Map(rows.map((r) => [Number(r.product.id), r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) return { field: 'product_ids', message: `These works do not exist: ${list(missing)}. Pick them again from your works.` };
  const others = ids.filter((id) => Number(byId.get(id)!.product.authorId) !== creatorId);
  if (others.length) return { field: 'product_ids', message: `Only your own works can go into your bundle; these are not yours: ${list(others)}.` };
  const packs = ids.filter((id) => byId.get(id)!.product.productType === 'pack');
  if (packs.length) return { field: 'product_ids', message: `A bundle cannot hold a pack; leave these out: ${list(packs)}.` };
  const bought = ids.filter((id) => byId.get(id)!.product.platformOwned);
  if (bought.length) {
    return { field: 'product_ids', message: `These works were bought by the platform and are no longer yours to sell; leave them out: ${list(bought)}.` };
  }
  const unlisted = ids.filter((id) => {
    const r = byId.get(id)!;
    return !isVisibleProduct({
      status: r.product.status,
      authorDeletedAt: r.authorDeletedAt,
      moderation: r.product.moderation,
      authorModeration: r.authorModeration,
    });
  });
  if (unlisted.length) {
    return {
      field: 'product_ids',
      message: `Only works listed in the shop can go into a bundle; these are not listed: ${list(unlisted)}. List them again or leave them out.`,
    };
  }
  const sum = ids.reduce((s, id) => s + Number(byId.get(id)!.product.priceMinor), 0);
  const max = bundleMaxPriceMinor(sum);
  if (priceMinor > max) {
    return {
      field: 'price',
      message: `A bundle must cost at least 10 % less than its works bought one by one (${euros(sum)}): set a price of at most ${euros(max)}.`,
    };
  }
  return null;
}

/** The proposals as their creator (or staff) see them, with their works as they are now. */
export async function toBundles(db: Db, rows: BundleRow[]): Promise<Bundle[]> {
  if (!rows.length) return [];
  const ids = [...new Set(rows.flatMap((r) => r.productIds.map(Number)))];
  const packIds = rows.map((r) => r.packId).filter((id): id is number => id !== null);
  const works = await db
    .select({ id: products.id, title: products.title, priceMinor: products.priceMinor, slug: products.slug })
    .from(products)
    .where(inArray(products.id, [...ids, ...packIds]));
  const byId = new Map(works.map((w) => [Number(w.id), w]));
  const creators = await db
    .select({ id: users.id, nickname: users.nickname })
    .from(users)
    .where(
      inArray(
        users.id,
        rows.map((r) => r.creatorId),
      ),
    );
  return rows.map((r) => {
    const items = r.productIds.map(Number).map((id) => ({ id, title: byId.get(id)?.title ?? '', price_minor: Number(byId.get(id)?.priceMinor ?? 0) }));
    return {
      id: Number(r.id),
      title: r.title,
      description: r.description,
      status: r.status,
      reason: r.reason,
      price_minor: Number(r.priceMinor),
      items_price_minor: items.reduce((s, i) => s + i.price_minor, 0),
      items,
      pack_id: r.packId === null ? null : Number(r.packId),
      pack_slug: r.packId === null ? null : (byId.get(Number(r.packId))?.slug ?? null),
      creator_nickname: creators.find((c) => Number(c.id) === Number(r.creatorId))?.nickname ?? '',
      created_at: new Date(r.createdAt).toISOString(),
    };
  });
}

/** The creator's works that may go into a bundle: listed in the shop, their own (not bought out), not packs; newest first. */
export async function bundleableWorks(db: Db, creatorId: number) {
  const rows = await db
    .select({ id: products.id, title: products.title, priceMinor: products.priceMinor })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(and(eq(products.authorId, creatorId), ne(products.productType, 'pack'), eq(products.platformOwned, false), visibleProductWhere))
    .orderBy(desc(products.id))
    .limit(500);
  return rows.map((r) => ({ id: Number(r.id), title: r.title, price_minor: Number(r.priceMinor) }));
}

/** A creator's proposal: checked (422 per field), then stored as pending. */
export async function proposeBundle(db: Db, creatorId: number, input: CreateBundleInput): Promise<Bundle> {
  const priceMinor = amountToMinor(input.price);
  const problem = await bundleProblems(db, creatorId, input.product_ids, priceMinor);
  if (problem) throw validationError({ [problem.field]: problem.message });
  const [row] = await db
    .insert(creatorBundles)
    .values({ creatorId, title: input.title, description: input.description, productIds: input.product_ids, priceMinor })
    .returning();
  return (await toBundles(db, [row!]))[0]!;
}

export async function listCreatorBundles(db: Db, creatorId: number): Promise<Bundle[]> {
  const rows = await db.select().from(creatorBundles).where(eq(creatorBundles.creatorId, creatorId)).orderBy(desc(creatorBundles.id));
  return toBundles(db, rows);
}

export async function listBundlesForStaff(db: Db, status: BundleStatus): Promise<Bundle[]> {
  const rows = await db.select().from(creatorBundles).where(eq(creatorBundles.status, status)).orderBy(desc(creatorBundles.id)).limit(200);
  return toBundles(db, rows);
}

/** The pack a bundle is published as: the creator's own (author, not platform-owned), its works in the bundle's order. */
async function publishPack(tx: Db, bundle: BundleRow): Promise<number> {
  const ids = bundle.productIds.map(Number);
  // Its picture: the preview of the first work in the bundle's order that has one.
  const previews = await tx.select({ id: products.id, previewPath: products.previewPath }).from(products).where(inArray(products.id, ids));
  const previewPath = ids.map((id) => previews.find((p) => Number(p.id) === id)?.previewPath).find(Boolean) ?? null;
  const [pack] = await tx
    .insert(products)
    .values({
      slug: `${slugify(bundle.title, 80) || 'bundle'}-b${bundle.id}`,
      title: bundle.title,
      description: bundle.description,
      productType: 'pack',
      categoryId: null,
      authorId: bundle.creatorId,
      priceMinor: bundle.priceMinor,
      status: 'published',
      previewPath,
      platformOwned: false,
    })
    .returning({ id: products.id });
  await tx.insert(packItems).values(ids.map((productId, position) => ({ packId: pack!.id, productId, position })));
  return Number(pack!.id);
}

const NOTICE: Partial<Record<BundleStatus, (b: BundleRow) => string>> = {
  approved: (b) => `Your bundle "${b.title.slice(0, 80)}" is approved and on sale.`,
  rejected: (b) => `Your bundle "${b.title.slice(0, 80)}" was rejected: ${b.reason ?? ''}`,
};

async function tellCreator(tx: Db, bundle: BundleRow) {
  const text = NOTICE[bundle.status]?.(bundle);
  if (!text) return;
  await notify(tx, { userId: bundle.creatorId, kind: 'offer_status', text, link: '/dashboard/bundles', data: { bundleId: bundle.id, status: bundle.status } });
  const [creator] = await tx.select({ email: users.email, name: users.name, deletedAt: users.deletedAt }).from(users).where(eq(users.id, bundle.creatorId));
  if (!creator || creator.deletedAt) return;
  const lines = [`Hello ${creator.name},`, text];
  await sendMail(tx, {
    to: creator.email,
    subject: `Your bundle "${bundle.title.slice(0, 80)}": ${bundle.status}`,
    text: lines.join('\n\n'),
    html: mailHtml(lines),
  });
}

/**
 * The one way a bundle changes status, inside the caller's transaction: locks the row, checks the table
 * (409 when the move is not allowed), and carries out the move's effects. `ownerId`: the creator making
 * the move; another creator's bundle is a 404.
 */
export async function moveBundle(
  tx: Db,
  opts: { bundleId: number; to: BundleStatus; actor: BundleActor; actorId: number; ownerId?: number; reason?: string },
): Promise<BundleRow> {
  const [current] = await tx.select().from(creatorBundles).where(eq(creatorBundles.id, opts.bundleId)).for('update');
  if (!current || (opts.ownerId !== undefined && Number(current.creatorId) !== opts.ownerId)) throw notFound(NOT_YOURS);
  const move = bundleLifecycle.find(current.status, opts.to, opts.actor);
  if (!move) throw new AppError('CONFLICT', illegalBundleMove(current.status, opts.to));
  let packId: number | null = null;
  if (move.effects.includes('publish_pack')) {
    // The works may have changed since the proposal (unlisted, repriced): checked again.
    const problem = await bundleProblems(tx, Number(current.creatorId), current.productIds.map(Number), Number(current.priceMinor));
    if (problem)
      throw new AppError(
        'CONFLICT',
        `This bundle cannot be approved as it is now. ${problem.message.replace(/^A bundle must/, 'It must')} Reject it with this reason.`,
      );
    packId = await publishPack(tx, current);
  }
  const staff = opts.actor === 'staff';
  const [moved] = await tx
    .update(creatorBundles)
    .set({
      status: opts.to,
      reason: move.effects.includes('keep_reason') ? (opts.reason ?? null) : current.reason,
      packId: packId ?? current.packId,
      reviewedBy: staff ? opts.actorId : current.reviewedBy,
      reviewedAt: staff ? new Date() : current.reviewedAt,
      updatedAt: new Date(),
    })
    .where(eq(creatorBundles.id, current.id))
    .returning();
  if (move.effects.includes('notify_creator')) await tellCreator(tx, moved!);
  if (move.effects.includes('audit')) {
    await recordAudit(tx, {
      staffId: opts.actorId,
      action: `bundle.${opts.to === 'approved' ? 'approve' : 'reject'}`,
      subjectType: 'bundle',
      subjectId: moved!.id,
      before: { status: current.status },
      after: { status: moved!.status, reason: moved!.reason, pack_id: moved!.packId },
    });
  }
  return moved!;
}
