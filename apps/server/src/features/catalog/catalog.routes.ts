import {
  catalogAnswer,
  catalogQuery,
  category,
  currencyOnlyQuery,
  okEnvelope,
  packsQuery,
  productBase,
  productDetails,
  productInfoParams,
  RELATED_ROW_SIZE,
  randomQuery,
  relatedProducts as relatedAnswerPayload,
  shortListQuery,
  tag,
} from '@atelier/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/app-error';
import { type DisplayCurrency, requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { publicCache } from '../../lib/http-cache';
import { createMicroCache } from '../../lib/micro-cache';
import { viewCounterOf } from '../analytics';
import {
  favoriteProducts,
  findProduct,
  listCategories,
  listProducts,
  listTags,
  type Memo,
  newProducts,
  productOwner,
  randomProducts,
  relatedProducts,
} from './catalog.queries';
import { scheduleFileDescriptions } from './describe-files';

/** Answers without prices never look at the currency. */
const NO_CURRENCY: DisplayCurrency = { code: '', symbol: '', rate: '1', decimals: 2 };

/** How long one process reuses a catalogue answer: what a new product waits, at most, to appear. */
export const CATALOG_CACHE_MS = 5_000;

/** A hidden product or a new price must show at once: clients revalidate every time (a cheap 304). */
const LIST_CACHE = publicCache(0);

/** The storefront's read side: categories, tags, the catalogue, product and pack details. */
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  // Every visitor asking for the same page in the same currency gets the same answer: keep it,
  // checked against the route's response schema and serialized once, for a few seconds, so popular
  // pages cost neither a database round trip nor a serialization (bench/cases/catalog-throughput.ts).
  const answers = createMicroCache<unknown>({ ttlMs: CATALOG_CACHE_MS, maxEntries: 2000 });
  const memo: Memo = (key, load) => answers.get(key, load) as never;
  // Any write to products, packs, tags, categories, authors or rates, on any app server, clears it.
  app.changes.on('catalog', () => answers.clear());
  // What a buyer gets, measured for the products whose files were not measured on upload (issue 31).
  scheduleFileDescriptions(app);

  async function sendShared<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    schema: z.ZodType,
    load: (currency: DisplayCurrency) => Promise<T>,
    opts: { priced?: boolean } = {},
  ) {
    const code = opts.priced === false ? undefined : requestedCurrency(request);
    const key = `${request.routeOptions.url}|${JSON.stringify(request.params)}|${JSON.stringify(request.query)}|${code ?? ''}`;
    const json = (await answers.get(key, async () => {
      const currency = opts.priced === false ? NO_CURRENCY : await resolveDisplayCurrency(app, code);
      return JSON.stringify(schema.parse(await load(currency)));
    })) as string;
    return reply.type('application/json; charset=utf-8').send(json);
  }

  const categoriesAnswer = okEnvelope(z.array(category));
  app.get('/categories', { config: publicCache(60), schema: { tags: ['catalog'], response: { 200: categoriesAnswer } } }, (request, reply) =>
    sendShared(request, reply, categoriesAnswer, async () => ok(await listCategories(app.db)), { priced: false }),
  );

  const tagsAnswer = okEnvelope(z.array(tag));
  app.get('/tags', { config: publicCache(60), schema: { tags: ['catalog'], response: { 200: tagsAnswer } } }, (request, reply) =>
    sendShared(request, reply, tagsAnswer, async () => ok(await listTags(app.db)), { priced: false }),
  );

  app.get(
    '/products/catalog',
    { config: LIST_CACHE, schema: { tags: ['catalog'], querystring: catalogQuery, response: { 200: catalogAnswer } } },
    (request, reply) => {
      const q = request.query;
      const categoryIds = [...(q.categories_id ?? []), ...(q['categories_id[]'] ?? [])];
      const filter = { page: q.page, limit: q.limit, sort: q.sort, productType: q.product_type, categoryIds, search: q.search || undefined, author: q.author };
      return sendShared(request, reply, catalogAnswer, async (currency) => ({
        status: 'OK' as const,
        ...(await listProducts(app.readDb, filter, currency, memo)),
      }));
    },
  );

  const productsAnswer = okEnvelope(z.array(productBase));
  app.get(
    '/products/random',
    // Random by design: never shared; clients revalidate every time (and get a fresh draw).
    { config: publicCache(0), schema: { tags: ['catalog'], querystring: randomQuery, response: { 200: productsAnswer } } },
    async (request) => {
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      return ok(await randomProducts(app.readDb, { limit: request.query.limit, productType: request.query.product_type }, currency));
    },
  );

  app.get(
    '/products/favorites',
    { config: LIST_CACHE, schema: { tags: ['catalog'], querystring: shortListQuery, response: { 200: productsAnswer } } },
    (request, reply) =>
      sendShared(request, reply, productsAnswer, async (currency) =>
        ok(await favoriteProducts(app.readDb, { limit: request.query.limit, productType: request.query.product_type }, currency)),
      ),
  );

  app.get(
    '/products/new-items',
    { config: LIST_CACHE, schema: { tags: ['catalog'], querystring: shortListQuery, response: { 200: productsAnswer } } },
    (request, reply) =>
      sendShared(request, reply, productsAnswer, async (currency) =>
        ok(await newProducts(app.readDb, { limit: request.query.limit, productType: request.query.product_type }, currency)),
      ),
  );

  const productDetailsAnswer = okEnvelope(productDetails);
  // A served product or pack is a view (features/analytics): noted in memory, written in batches.
  const views = viewCounterOf(app.db);
  // Noted before the answer goes out, so a client's next call finds it noted; never fails the answer.
  const countView = async (request: FastifyRequest, slug: string, packsOnly = false) => {
    try {
      const owner = await memo(`view-owner|${packsOnly}|${slug}`, () => productOwner(app.db, slug, { packsOnly }));
      if (owner) views.record(request, owner);
    } catch (err) {
      request.log.warn({ err }, 'view not counted');
    }
  };
  app.get(
    '/products/:slug/info',
    { config: LIST_CACHE, schema: { tags: ['catalog'], params: productInfoParams, querystring: currencyOnlyQuery, response: { 200: productDetailsAnswer } } },
    async (request, reply) => {
      await countView(request, request.params.slug);
      return sendShared(request, reply, productDetailsAnswer, async (currency) => {
        const found = await findProduct(app.readDb, request.params.slug, currency);
        if (!found) throw notFound('This product does not exist or is no longer on sale.');
        return ok(found);
      });
    },
  );

  // Below the buy box (issue 20): cached with the catalogue and dropped by its change feed.
  const relatedAnswer = okEnvelope(relatedAnswerPayload);
  app.get(
    '/products/:slug/related',
    { config: LIST_CACHE, schema: { tags: ['catalog'], params: productInfoParams, querystring: currencyOnlyQuery, response: { 200: relatedAnswer } } },
    (request, reply) =>
      sendShared(request, reply, relatedAnswer, async (currency) => {
        const found = await relatedProducts(app.readDb, request.params.slug, currency, RELATED_ROW_SIZE);
        if (!found) throw notFound('This product does not exist or is no longer on sale.');
        return ok({ more_from: found.moreFrom, similar: found.similar });
      }),
  );

  app.get('/packs', { config: LIST_CACHE, schema: { tags: ['catalog'], querystring: packsQuery, response: { 200: catalogAnswer } } }, (request, reply) => {
    const q = request.query;
    const filter = { page: q.page, limit: q.limit, sort: q.sort, productType: 'pack' as const, itemType: q.product_type, search: q.search || undefined };
    return sendShared(request, reply, catalogAnswer, async (currency) => ({
      status: 'OK' as const,
      ...(await listProducts(app.readDb, filter, currency, memo)),
    }));
  });

  app.get(
    '/packs/:slug/info',
    { config: LIST_CACHE, schema: { tags: ['catalog'], params: productInfoParams, querystring: currencyOnlyQuery, response: { 200: productDetailsAnswer } } },
    async (request, reply) => {
      await countView(request, request.params.slug, true);
      return sendShared(request, reply, productDetailsAnswer, async (currency) => {
        const found = await findProduct(app.readDb, request.params.slug, currency, { packsOnly: true });
        if (!found) throw notFound('This pack does not exist or is no longer on sale.');
        return ok(found);
      });
    },
  );
};
