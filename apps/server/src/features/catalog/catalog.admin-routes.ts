import { adminProduct, adminProductUpdate, amountToMinor, okEnvelope } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { products } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';

const productIdParams = z.object({
  id: z.coerce.number({ error: 'The product id must be a number.' }).int().positive().max(Number.MAX_SAFE_INTEGER, 'This product id is out of range.'),
});

/**
 * Staff calls on products, under /api/admin. A change here reaches every app server's catalogue at
 * once: the products trigger notifies `catalog`, and each server drops its cached answers.
 */
export const catalogAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/products/:id',
    { config: guard('admin'), schema: { tags: ['admin'], params: productIdParams, body: adminProductUpdate, response: { 200: okEnvelope(adminProduct) } } },
    async (request) => {
      const { status, price } = request.body;
      const [row] = await app.db
        .update(products)
        .set({
          ...(status ? { status } : {}),
          ...(price !== undefined ? { priceMinor: amountToMinor(price) } : {}),
          updatedAt: new Date(),
        })
        .where(eq(products.id, request.params.id))
        .returning();
      if (!row) throw notFound('This product does not exist.');
      request.log.info({ productId: row.id, status, priceChanged: price !== undefined, by: request.user?.id }, 'product changed by staff');
      return ok(
        { id: row.id, slug: row.slug, title: row.title, product_type: row.productType, status: row.status, price_minor: row.priceMinor },
        'The product is saved.',
      );
    },
  );
};
