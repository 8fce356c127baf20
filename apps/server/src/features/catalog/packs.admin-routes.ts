import { adminIdParams, adminPack, adminPackCreate, adminPackItems, amountToMinor, okEnvelope } from '@atelier/shared';
import { and, asc, eq, inArray, like } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { categories, packItems, products, users } from '../../db/schema';
import { isVisibleProduct } from '../../db/visibility';
import { AppError, notFound, validationError } from '../../lib/app-error';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { slugify } from '../../lib/text';
import { recordAudit } from '../audit';

/**
 * The items must exist, be works (not packs), and be for sale: published, by an author whose account
 * is not deleted (a pack pays each item's author their share, so a hidden or draft work may not hide in
 * one). Answers their rows in the given order.
 */
async function checkItems(tx: Db, ids: number[]) {
  const rows = await tx
    .select({ product: products, authorDeletedAt: users.deletedAt, authorModeration: users.moderation })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(inArray(products.id, ids));
  const missing = ids.filter((id) => !rows.some((r) => r.product.id === id));
  if (missing.length) throw validationError({ product_ids: `These products do not exist: ${missing.join(', ')}.` });
  if (rows.some((r) => r.product.productType === 'pack')) throw validationError({ product_ids: 'A pack cannot hold another pack.' });
  const unlisted = rows
    .filter(
      (r) =>
        !isVisibleProduct({
          status: r.product.status,
          authorDeletedAt: r.authorDeletedAt,
          moderation: r.product.moderation,
          authorModeration: r.authorModeration,
        }),
    )
    .map((r) => r.product.id);
  if (unlisted.length) {
    throw validationError({ product_ids: `Only published works can go into a pack; these are not for sale: ${unlisted.join(', ')}.` });
  }
  return ids.map((id) => rows.find((r) => r.product.id === id)!.product);
}

async function setItems(tx: Db, packId: number, ids: number[]) {
  await tx.delete(packItems).where(eq(packItems.packId, packId));
  await tx.insert(packItems).values(ids.map((productId, position) => ({ packId, productId, position })));
}

async function itemIds(db: Db, packId: number): Promise<number[]> {
  const rows = await db.select({ id: packItems.productId }).from(packItems).where(eq(packItems.packId, packId)).orderBy(asc(packItems.position));
  return rows.map((r) => r.id);
}

/** A slug not yet taken: the title's, else with -2, -3, … */
async function freeSlug(tx: Db, title: string): Promise<string> {
  const base = slugify(title) || 'pack';
  const taken = new Set(
    (
      await tx
        .select({ slug: products.slug })
        .from(products)
        .where(like(products.slug, `${base}%`))
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** Staff build packs from products, under /api/admin. */
export const packsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * A pack built by staff is platform-owned (its sales go to platform revenue, as for bought-out
   * works); its author is the staff member, its picture the first item's preview.
   */
  app.post(
    '/packs',
    { config: guard('admin'), schema: { tags: ['admin'], body: adminPackCreate, response: { 200: okEnvelope(adminPack) } } },
    async (request) => {
      const staffId = request.user!.id;
      const body = request.body;
      const pack = await app.db.transaction(async (tx) => {
        const items = await checkItems(tx, body.product_ids);
        if (body.category_id !== undefined) {
          const [cat] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, body.category_id));
          if (!cat) throw validationError({ category_id: 'This category does not exist.' });
        }
        const [row] = await tx
          .insert(products)
          .values({
            slug: await freeSlug(tx, body.title),
            title: body.title,
            description: body.description,
            productType: 'pack',
            categoryId: body.category_id ?? null,
            authorId: staffId,
            priceMinor: amountToMinor(body.price),
            status: body.status,
            previewPath: items.find((i) => i.previewPath)?.previewPath ?? null,
            platformOwned: true,
          })
          .returning();
        await setItems(tx, row!.id, body.product_ids);
        await recordAudit(tx, {
          staffId,
          action: 'pack.create',
          subjectType: 'product',
          subjectId: row!.id,
          after: { title: row!.title, price_minor: row!.priceMinor, status: row!.status, product_ids: body.product_ids },
        });
        return row!;
      });
      return ok(
        { id: pack.id, slug: pack.slug, title: pack.title, status: pack.status, price_minor: pack.priceMinor, product_ids: body.product_ids },
        'The pack is created.',
      );
    },
  );

  app.put(
    '/packs/:id/items',
    { config: guard('admin'), schema: { tags: ['admin'], params: adminIdParams, body: adminPackItems, response: { 200: okEnvelope(adminPack) } } },
    async (request) => {
      const staffId = request.user!.id;
      const ids = request.body.product_ids;
      const pack = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(products)
          .where(and(eq(products.id, request.params.id)))
          .for('update');
        if (!row) throw notFound('This pack does not exist.');
        if (row.productType !== 'pack') throw new AppError('CONFLICT', 'This product is not a pack.');
        if (ids.includes(row.id)) throw validationError({ product_ids: 'A pack cannot hold itself.' });
        await checkItems(tx, ids);
        const before = await itemIds(tx, row.id);
        await setItems(tx, row.id, ids);
        await tx.update(products).set({ updatedAt: new Date() }).where(eq(products.id, row.id));
        await recordAudit(tx, {
          staffId,
          action: 'pack.items',
          subjectType: 'product',
          subjectId: row.id,
          before: { product_ids: before },
          after: { product_ids: ids },
        });
        return row;
      });
      return ok({ id: pack.id, slug: pack.slug, title: pack.title, status: pack.status, price_minor: pack.priceMinor, product_ids: ids }, 'The pack is saved.');
    },
  );
};
