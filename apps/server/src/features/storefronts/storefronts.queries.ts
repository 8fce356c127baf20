import { type FeaturableWork, msg, type OwnStorefront, type Storefront, type StorefrontLink } from '@atelier/shared';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { follows, products, storefronts, storefrontWorks, users } from '../../db/schema';
import { visibleProductWhere } from '../../db/visibility';
import { validationError } from '../../lib/app-error';
import type { DisplayCurrency } from '../../lib/display-currency';
import { publicUrl } from '../../lib/storage';
import { visibleProductsByIds } from '../catalog';

/** The works the editor offers: the creator's own listed works, newest first (the shop's limit per creator is far above). */
const FEATURABLE_LIMIT = 500;

type StorefrontRow = { headline: string; bannerPath: string | null; links: StorefrontLink[] };

async function storefrontRow(db: Db, creatorId: number): Promise<StorefrontRow> {
  const [row] = await db
    .select({ headline: storefronts.headline, bannerPath: storefronts.bannerPath, links: storefronts.links })
    .from(storefronts)
    .where(eq(storefronts.creatorId, creatorId));
  return row ? { ...row, links: Array.isArray(row.links) ? row.links : [] } : { headline: '', bannerPath: null, links: [] };
}

async function featuredIds(db: Db, creatorId: number): Promise<number[]> {
  const rows = await db
    .select({ id: storefrontWorks.productId })
    .from(storefrontWorks)
    .where(eq(storefrontWorks.creatorId, creatorId))
    .orderBy(asc(storefrontWorks.position));
  return rows.map((r) => Number(r.id));
}

/** The creator's works the public may see and buy, which alone may be featured. */
async function listedWorks(db: Db, creatorId: number, ids?: number[]): Promise<FeaturableWork[]> {
  const rows = await db
    .select({ id: products.id, title: products.title, productType: products.productType, previewPath: products.previewPath })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(and(eq(products.authorId, creatorId), visibleProductWhere, ids ? inArray(products.id, ids) : undefined))
    .orderBy(desc(products.id))
    .limit(FEATURABLE_LIMIT);
  return rows.map((r) => ({ id: Number(r.id), title: r.title, product_type: r.productType, image_url: publicUrl(r.previewPath) }));
}

/**
 * Followers, and the orders that bought one of the creator's works (alone or in a pack) and still
 * stand, their own purchases left out: counted as the product page counts a work's sales.
 */
async function creatorCounts(db: Db, creatorId: number): Promise<{ followers: number; sales: number }> {
  const [row] = rowsOf<{ followers: number | string; sales: number | string }>(
    await db.execute(sql`
    select
      (select count(*) from ${follows} where ${follows.creatorId} = ${creatorId}) as followers,
      (select count(distinct oi.order_id) from order_items oi
         join orders o on o.id = oi.order_id
         join products p on p.id = oi.product_id
        where p.author_id = ${creatorId} and oi.refunded_at is null and o.status = 'success' and o.buyer_id <> ${creatorId}) as sales`),
  );
  return { followers: Number(row?.followers ?? 0), sales: Number(row?.sales ?? 0) };
}

/** The public storefront of a creator found by nickname or id: only works still listed are featured. */
export async function readStorefront(db: Db, creator: { id: number; nickname: string }, currency: DisplayCurrency): Promise<Storefront> {
  const [row, ids, counts] = await Promise.all([storefrontRow(db, creator.id), featuredIds(db, creator.id), creatorCounts(db, creator.id)]);
  const featured = (await visibleProductsByIds(db, ids, currency)).filter((p) => ids.includes(p.id));
  return {
    creator_id: creator.id,
    nickname: creator.nickname,
    headline: row.headline,
    banner_url: publicUrl(row.bannerPath),
    links: row.links,
    featured,
    followers_count: counts.followers,
    sales_count: counts.sales,
  };
}

/** The owner's storefront for the editor: what is saved (featured ids still listed) and what may be featured. */
export async function readOwnStorefront(db: Db, creatorId: number): Promise<OwnStorefront> {
  const [row, ids, works] = await Promise.all([storefrontRow(db, creatorId), featuredIds(db, creatorId), listedWorks(db, creatorId)]);
  const listed = new Set(works.map((w) => w.id));
  return { headline: row.headline, banner_url: publicUrl(row.bannerPath), links: row.links, featured_ids: ids.filter((id) => listed.has(id)), works };
}

/**
 * Saves headline, links and featured works at once. Every featured id must be one of the creator's
 * own listed works: any other (someone else's, a draft, an unlisted or hidden work) is a 422 on its
 * place in the list, so the editor can point at it.
 */
export async function saveStorefront(
  db: Db,
  creatorId: number,
  input: { headline: string; links: StorefrontLink[]; featured_ids: number[] },
): Promise<OwnStorefront> {
  const own = new Set((await listedWorks(db, creatorId, input.featured_ids.length ? input.featured_ids : [0])).map((w) => w.id));
  const fields: Record<string, string> = {};
  input.featured_ids.forEach((id, i) => {
    if (!own.has(id)) fields[`featured_ids.${i}`] = msg('storefront.own_works_only');
  });
  if (Object.keys(fields).length) throw validationError(fields);
  await db.transaction(async (tx) => {
    await tx
      .insert(storefronts)
      .values({ creatorId, headline: input.headline, links: input.links })
      .onConflictDoUpdate({ target: storefronts.creatorId, set: { headline: input.headline, links: input.links, updatedAt: new Date() } });
    await tx.delete(storefrontWorks).where(eq(storefrontWorks.creatorId, creatorId));
    if (input.featured_ids.length)
      await tx.insert(storefrontWorks).values(input.featured_ids.map((productId, position) => ({ creatorId, productId, position })));
  });
  return readOwnStorefront(db, creatorId);
}

/** Sets the banner's storage key and answers the one it replaces (for the caller to remove after). */
export async function setBanner(db: Db, creatorId: number, bannerPath: string | null): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ bannerPath: storefronts.bannerPath }).from(storefronts).where(eq(storefronts.creatorId, creatorId)).for('update');
    await tx
      .insert(storefronts)
      .values({ creatorId, bannerPath })
      .onConflictDoUpdate({ target: storefronts.creatorId, set: { bannerPath, updatedAt: new Date() } });
    return before?.bannerPath ?? null;
  });
}
