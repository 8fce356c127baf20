import {
  catalogAnswer,
  catalogQuery,
  category,
  currencyOnlyQuery,
  okEnvelope,
  packsQuery,
  product,
  productBase,
  productInfoParams,
  randomQuery,
  shortListQuery,
  tag,
} from '@atelier/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/app-error';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { publicCache } from '../../lib/http-cache';
import { favoriteProducts, findProduct, listCategories, listProducts, listTags, newProducts, randomProducts } from './catalog.queries';

/** Lists change when a product is published; a minute of client caching, then a cheap 304. */
const LIST_CACHE = publicCache(60);

/** The storefront's read side: categories, tags, the catalogue, product and pack details. */
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const currencyOf = (request: FastifyRequest) => resolveDisplayCurrency(app.db, requestedCurrency(request));

  app.get('/categories', { config: publicCache(300), schema: { tags: ['catalog'], response: { 200: okEnvelope(z.array(category)) } } }, async () =>
    ok(await listCategories(app.db)),
  );

  app.get('/tags', { config: publicCache(300), schema: { tags: ['catalog'], response: { 200: okEnvelope(z.array(tag)) } } }, async () =>
    ok(await listTags(app.db)),
  );

  app.get(
    '/products/catalog',
    { config: LIST_CACHE, schema: { tags: ['catalog'], querystring: catalogQuery, response: { 200: catalogAnswer } } },
    async (request) => {
      const q = request.query;
      const currency = await currencyOf(request);
      const categoryIds = [...(q.categories_id ?? []), ...(q['categories_id[]'] ?? [])];
      const { payload, meta } = await listProducts(
        app.db,
        { page: q.page, limit: q.limit, sort: q.sort, productType: q.product_type, categoryIds, search: q.search || undefined },
        currency,
      );
      return { status: 'OK' as const, payload, meta };
    },
  );

  app.get(
    '/products/random',
    // Random by design: every answer differs, so clients revalidate (and get a fresh draw).
    { config: publicCache(0), schema: { tags: ['catalog'], querystring: randomQuery, response: { 200: okEnvelope(z.array(productBase)) } } },
    async (request) => ok(await randomProducts(app.db, { limit: request.query.limit, productType: request.query.product_type }, await currencyOf(request))),
  );

  app.get(
    '/products/favorites',
    { config: LIST_CACHE, schema: { tags: ['catalog'], querystring: shortListQuery, response: { 200: okEnvelope(z.array(productBase)) } } },
    async (request) => ok(await favoriteProducts(app.db, { limit: request.query.limit, productType: request.query.product_type }, await currencyOf(request))),
  );

  app.get(
    '/products/new-items',
    { config: LIST_CACHE, schema: { tags: ['catalog'], querystring: shortListQuery, response: { 200: okEnvelope(z.array(productBase)) } } },
    async (request) => ok(await newProducts(app.db, { limit: request.query.limit, productType: request.query.product_type }, await currencyOf(request))),
  );

  app.get(
    '/products/:slug/info',
    { config: LIST_CACHE, schema: { tags: ['catalog'], params: productInfoParams, querystring: currencyOnlyQuery, response: { 200: okEnvelope(product) } } },
    async (request) => {
      const found = await findProduct(app.db, request.params.slug, await currencyOf(request));
      if (!found) throw notFound('This product does not exist or is no longer on sale.');
      return ok(found);
    },
  );

  app.get('/packs', { config: LIST_CACHE, schema: { tags: ['catalog'], querystring: packsQuery, response: { 200: catalogAnswer } } }, async (request) => {
    const q = request.query;
    const { payload, meta } = await listProducts(
      app.db,
      { page: q.page, limit: q.limit, sort: q.sort, productType: 'pack', search: q.search || undefined },
      await currencyOf(request),
    );
    return { status: 'OK' as const, payload, meta };
  });

  app.get(
    '/packs/:slug/info',
    { config: LIST_CACHE, schema: { tags: ['catalog'], params: productInfoParams, querystring: currencyOnlyQuery, response: { 200: okEnvelope(product) } } },
    async (request) => {
      const found = await findProduct(app.db, request.params.slug, await currencyOf(request), { packsOnly: true });
      if (!found) throw notFound('This pack does not exist or is no longer on sale.');
      return ok(found);
    },
  );
};
