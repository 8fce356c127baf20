import { adminProduct, adminProductsQuery, adminProductUpdate, amountToMinor, okEnvelope } from '@atelier/shared';
import { and, asc, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { categories, packItems, products, productTags, tags, users } from '../../db/schema';
import { isVisibleProduct, PACK_MIN_ITEMS } from '../../db/visibility';
import { notFound, validationError } from '../../lib/app-error';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { recordAudit } from '../audit';
import { notifyFollowersOfNewWork } from '../follows';

const productIdParams = z.object({
  id: z.coerce.number({ error: 'The product id must be a number.' }).int().positive().max(Number.MAX_SAFE_INTEGER, 'This product id is out of range.'),
});

type ProductRow = typeof products.$inferSelect;

async function tagNames(db: Db, productId: number): Promise<string[]> {
  const rows = await db
    .select({ name: tags.name })
    .from(productTags)
    .innerJoin(tags, eq(tags.id, productTags.tagId))
    .where(eq(productTags.productId, productId))
    .orderBy(asc(tags.name));
  return rows.map((r) => r.name);
}

async function authorOf(db: Db, authorId: number) {
  const [author] = await db.select({ id: users.id, nickname: users.nickname }).from(users).where(eq(users.id, authorId));
  return author ?? { id: authorId, nickname: '' };
}

type PackHealth = Map<number, { notForSale: number[]; forSale: number }>;

/**
 * For each pack among `rows`, its works no longer for sale and how many still are: unlisting or hiding a
 * work (or its author leaving) flags its packs for staff, read from the works themselves so every way a
 * work leaves the shop is seen (issue 30 finding 2).
 */
async function packHealth(db: Db, rows: ProductRow[]): Promise<PackHealth> {
  const packIds = rows.filter((r) => r.productType === 'pack').map((r) => r.id);
  const health: PackHealth = new Map(packIds.map((id) => [id, { notForSale: [], forSale: 0 }]));
  if (!packIds.length) return health;
  const items = await db
    .select({ packId: packItems.packId, productId: packItems.productId, status: products.status, authorDeletedAt: users.deletedAt })
    .from(packItems)
    .innerJoin(products, eq(products.id, packItems.productId))
    .innerJoin(users, eq(users.id, products.authorId))
    .where(inArray(packItems.packId, packIds))
    .orderBy(asc(packItems.packId), asc(packItems.position));
  for (const item of items) {
    const pack = health.get(Number(item.packId))!;
    if (isVisibleProduct(item)) pack.forSale++;
    else pack.notForSale.push(Number(item.productId));
  }
  return health;
}

const packFields = (row: ProductRow, health: PackHealth) => {
  const pack = health.get(row.id);
  return pack ? { pack_items_not_for_sale: pack.notForSale, pack_sells: pack.forSale >= PACK_MIN_ITEMS } : {};
};

const productView = (row: ProductRow, tagList: string[], author: { id: number; nickname: string }, health: PackHealth = new Map()) => ({
  ...packFields(row, health),
  id: row.id,
  slug: row.slug,
  title: row.title,
  product_type: row.productType,
  status: row.status,
  price_minor: row.priceMinor,
  category_id: row.categoryId,
  tags: tagList,
  description: row.description,
  author,
  platform_owned: row.platformOwned,
});

/** What the audit log keeps of a product. */
const productAudit = (row: ProductRow, tagList: string[]) => ({
  status: row.status,
  price_minor: row.priceMinor,
  category_id: row.categoryId,
  tags: tagList,
  title: row.title,
  description: row.description,
});

/** Replaces the product's tags with `names` (tags are created on first use). */
async function setTags(tx: Db, productId: number, names: string[]) {
  // One tag per spelling ignoring case; the first spelling given wins.
  const byKey = new Map<string, string>();
  for (const n of names) if (!byKey.has(n.toLowerCase())) byKey.set(n.toLowerCase(), n);
  const unique = [...byKey.values()];
  await tx.delete(productTags).where(eq(productTags.productId, productId));
  if (!unique.length) return;
  await tx
    .insert(tags)
    .values(unique.map((name) => ({ name })))
    .onConflictDoNothing({ target: tags.name });
  const rows = await tx.select({ id: tags.id }).from(tags).where(inArray(tags.name, unique));
  await tx.insert(productTags).values(rows.map((r) => ({ productId, tagId: r.id })));
}

/**
 * Staff calls on products, under /api/admin. A change here reaches every app server's catalogue at
 * once: the products trigger notifies `catalog`, and each server drops its cached answers.
 */
export const catalogAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Search by title, slug or id, any status (hidden and unlisted included), newest first. */
  app.get(
    '/products',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: adminProductsQuery, response: { 200: okEnvelope(z.array(adminProduct)) } } },
    async (request) => {
      const { q, status, product_type: type, limit } = request.query;
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const asId = /^\d{1,15}$/.test(q) ? Number(q) : null;
      const rows = await app.db
        .select({ product: products, author: { id: users.id, nickname: users.nickname } })
        .from(products)
        .innerJoin(users, eq(users.id, products.authorId))
        .where(
          and(
            q ? or(ilike(products.title, like), ilike(products.slug, like), asId ? eq(products.id, asId) : undefined) : undefined,
            status ? eq(products.status, status) : undefined,
            type ? eq(products.productType, type) : undefined,
          ),
        )
        .orderBy(desc(products.id))
        .limit(limit);
      const ids = rows.map((r) => r.product.id);
      const tagRows = ids.length
        ? await app.db
            .select({ productId: productTags.productId, name: tags.name })
            .from(productTags)
            .innerJoin(tags, eq(tags.id, productTags.tagId))
            .where(inArray(productTags.productId, ids))
            .orderBy(asc(tags.name))
        : [];
      const health = await packHealth(
        app.db,
        rows.map((r) => r.product),
      );
      return ok(
        rows.map((r) =>
          productView(
            r.product,
            tagRows.filter((x) => x.productId === r.product.id).map((x) => x.name),
            r.author,
            health,
          ),
        ),
      );
    },
  );

  app.get(
    '/products/:id',
    { config: guard('admin'), schema: { tags: ['admin'], params: productIdParams, response: { 200: okEnvelope(adminProduct) } } },
    async (request) => {
      const [row] = await app.db.select().from(products).where(eq(products.id, request.params.id));
      if (!row) throw notFound('This product does not exist.');
      return ok(productView(row, await tagNames(app.db, row.id), await authorOf(app.db, row.authorId), await packHealth(app.db, [row])));
    },
  );

  /** Sets the list price, category, tags and visibility (publish after an offer's acceptance, hide, unhide). */
  app.patch(
    '/products/:id',
    { config: guard('admin'), schema: { tags: ['admin'], params: productIdParams, body: adminProductUpdate, response: { 200: okEnvelope(adminProduct) } } },
    async (request) => {
      const { status, price, category_id: categoryId, tags: tagList, title, description } = request.body;
      const staffId = request.user!.id;
      const answer = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(products).where(eq(products.id, request.params.id)).for('update');
        if (!before) throw notFound('This product does not exist.');
        if (categoryId !== undefined) {
          const [cat] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId));
          if (!cat) throw validationError({ category_id: 'This category does not exist.' });
        }
        const tagsBefore = await tagNames(tx, before.id);
        const [row] = await tx
          .update(products)
          .set({
            ...(status ? { status } : {}),
            ...(price !== undefined ? { priceMinor: amountToMinor(price) } : {}),
            ...(categoryId !== undefined ? { categoryId } : {}),
            ...(title !== undefined ? { title } : {}),
            ...(description !== undefined ? { description } : {}),
            updatedAt: new Date(),
          })
          .where(eq(products.id, before.id))
          .returning();
        if (tagList) await setTags(tx, before.id, tagList);
        // First publication (a draft going live): the creator's followers hear of it in this transaction.
        if (before.status === 'draft' && row!.status === 'published') {
          const author = await authorOf(tx, row!.authorId);
          await notifyFollowersOfNewWork(tx, { ...row!, authorNickname: author.nickname });
        }
        const tagsAfter = tagList ? await tagNames(tx, before.id) : tagsBefore;
        await recordAudit(tx, {
          staffId,
          action: 'product.update',
          subjectType: 'product',
          subjectId: before.id,
          before: productAudit(before, tagsBefore),
          after: productAudit(row!, tagsAfter),
        });
        return productView(row!, tagsAfter, await authorOf(tx, row!.authorId));
      });
      request.log.info({ productId: answer.id, status, priceChanged: price !== undefined, by: staffId }, 'product changed by staff');
      return ok(answer, 'The product is saved.');
    },
  );
};
