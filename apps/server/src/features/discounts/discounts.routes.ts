import {
  createDiscountInput,
  discountAnswer,
  discountList,
  discountParams,
  idParam,
  LICENCE_MESSAGES,
  licencePriceMinor,
  okEnvelope,
  okMessage,
  pricePreview,
  priceQuery,
  updateDiscountInput,
} from '@atelier/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { products, users } from '../../db/schema';
import { visibleProductWhere } from '../../db/visibility';
import { notFound, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { displayAmount, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { createDiscount, deleteDiscount, listDiscounts, updateDiscount } from './discounts.queries';
import { priceLines } from './pricing';

/** A creator's own discount codes and sales (issue 34), and the price preview of any work. */
export const discountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['discounts'];

  app.get('/seller/discounts', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(discountList) } } }, async (request) =>
    ok({ discounts: await listDiscounts(app.db, currentUser(request).id) }),
  );

  app.post(
    '/seller/discounts',
    { config: guard('verified'), schema: { tags, body: createDiscountInput, response: { 200: okEnvelope(discountAnswer) } } },
    async (request) => ok({ discount: await createDiscount(app.db, currentUser(request).id, request.body) }, 'The discount was created.'),
  );

  app.patch(
    '/seller/discounts/:id',
    { config: guard('verified'), schema: { tags, params: discountParams, body: updateDiscountInput, response: { 200: okEnvelope(discountAnswer) } } },
    async (request) => {
      const { after } = await updateDiscount(app.db, currentUser(request).id, request.params.id, request.body);
      return ok({ discount: after }, 'The discount was saved.');
    },
  );

  app.delete(
    '/seller/discounts/:id',
    { config: guard('verified'), schema: { tags, params: discountParams, response: { 200: okMessage } } },
    async (request) => {
      await deleteDiscount(app.db, currentUser(request).id, request.params.id);
      return { status: 'OK' as const, message: 'The discount was deleted.' };
    },
  );

  /** What a work costs now, with a code or a running sale: nothing is charged or counted. */
  app.get(
    '/products/:id/price',
    { schema: { tags, params: z.object({ id: idParam('product') }), querystring: priceQuery, response: { 200: okEnvelope(pricePreview) } } },
    async (request) => {
      const [product] = await app.db
        .select({
          id: products.id,
          title: products.title,
          priceMinor: products.priceMinor,
          personalPriceMinor: products.personalPriceMinor,
          extendedPriceMinor: products.extendedPriceMinor,
          authorId: products.authorId,
          platformOwned: products.platformOwned,
        })
        .from(products)
        .innerJoin(users, eq(users.id, products.authorId))
        .where(and(eq(products.id, request.params.id), visibleProductWhere))
        .limit(1);
      if (!product) throw notFound('This product does not exist.');
      // The licence's list price (issue 34): a discount applies to it as it does at the purchase.
      const tier = request.query.licence_tier ?? 'commercial';
      const listed = licencePriceMinor({ ...product, priceMinor: Number(product.priceMinor) }, tier);
      if (listed === null) throw validationError({ licence_tier: LICENCE_MESSAGES.notOffered(tier) });
      const line = { ...product, priceMinor: listed };
      const { prices, applied } = await priceLines(app.db, [line], request.query.discount_code);
      const currency = await resolveDisplayCurrency(app, request.query.currency);
      const price = prices.get(line.id)!;
      const got = applied[0];
      return ok({
        product_id: line.id,
        list_price_minor: line.priceMinor,
        price_minor: price,
        list_price: displayAmount(line.priceMinor, currency),
        price: displayAmount(price, currency),
        currency: currency.code,
        discount: got
          ? {
              code: got.code,
              automatic: got.automatic,
              kind: got.kind,
              value: got.value,
              amount_minor: got.discountMinor,
              ends_at: got.endsAt?.toISOString() ?? null,
            }
          : null,
      });
    },
  );
};
