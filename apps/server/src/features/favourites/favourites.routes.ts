import { catalogAnswer, favouriteIds, favouriteParams, favouriteState, favouritesQuery, okEnvelope } from '@atelier/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { favourites, products, users } from '../../db/schema';
import { visibleProductWhere } from '../../db/visibility';
import { notFound } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { listProducts } from '../catalog';

/** A buyer's wishlist (issue 20): a heart on a published work; the list in the catalogue's shape. */
export const favouritesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['favourites'];

  app.post(
    '/favourites/:productId',
    { config: guard('user'), schema: { tags, params: favouriteParams, response: { 200: okEnvelope(favouriteState) } } },
    async (request) => {
      const userId = currentUser(request).id;
      const { productId } = request.params;
      const [product] = await app.db
        .select({ id: products.id })
        .from(products)
        .innerJoin(users, eq(users.id, products.authorId))
        .where(and(eq(products.id, productId), visibleProductWhere))
        .limit(1);
      if (!product) throw notFound('This product does not exist or is no longer on sale.');
      await app.db.insert(favourites).values({ userId, productId }).onConflictDoNothing();
      return ok({ product_id: productId, favourite: true }, 'Added to your favourites.');
    },
  );

  app.delete(
    '/favourites/:productId',
    { config: guard('user'), schema: { tags, params: favouriteParams, response: { 200: okEnvelope(favouriteState) } } },
    async (request) => {
      const userId = currentUser(request).id;
      const { productId } = request.params;
      await app.db.delete(favourites).where(and(eq(favourites.userId, userId), eq(favourites.productId, productId)));
      return ok({ product_id: productId, favourite: false }, 'Removed from your favourites.');
    },
  );

  app.get('/favourites', { config: guard('user'), schema: { tags, querystring: favouritesQuery, response: { 200: catalogAnswer } } }, async (request) => {
    const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
    const { page, limit } = request.query;
    return { status: 'OK' as const, ...(await listProducts(app.db, { page, limit, favouritedBy: currentUser(request).id }, currency)) };
  });

  /** The ids alone, newest first: the hearts on every card of a page. */
  app.get('/favourites/ids', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(favouriteIds) } } }, async (request) => {
    const rows = await app.db
      .select({ id: favourites.productId })
      .from(favourites)
      .where(eq(favourites.userId, currentUser(request).id))
      .orderBy(desc(favourites.createdAt))
      .limit(1000);
    return ok(rows.map((r) => Number(r.id)));
  });
};
