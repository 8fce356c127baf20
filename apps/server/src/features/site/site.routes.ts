import {
  contactInput,
  country,
  currency,
  dictionary,
  localeParams,
  okEnvelope,
  okMessage,
  publicSiteSettings,
  socialLink,
  staticPage,
  staticPageParams,
  staticPageSummary,
} from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import { publicCache } from '../../lib/http-cache';
import { enforceRateLimit } from '../../lib/rate-limit';
import { imageGenerationMode } from '../generation';
import { commerceSettingsOf } from '../ledger';
import { payoutMethodsFor } from '../payouts';
import { ISO_COUNTRIES } from './countries.data';
import { findStaticPage, getDictionary, listCurrencies, listSocialLinks, listStaticPages, saveContactMessage } from './site.queries';

/** Site data changes rarely (back-office edits): a minute of client caching, then a cheap 304. */
const SITE_CACHE = publicCache(60);

/** Site-wide data every page needs: settings, currencies, static pages, social links, translations. */
export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  // Beside the stored settings, what the start's configuration says about money: the test-mode banner, the payout
  // methods, how images are generated and what one costs (issue 18 bug 4: the web asks before it charges), and the
  // commission the home page states (issue 18).
  app.get('/settings', { config: SITE_CACHE, schema: { tags: ['site'], response: { 200: okEnvelope(publicSiteSettings) } } }, async () =>
    ok({
      ...(await app.settings.get()),
      test_mode: app.config.testMode,
      payout_methods: payoutMethodsFor(app.config),
      image_generation: imageGenerationMode(app.config),
      generation_price: (await commerceSettingsOf(app)).generation_price,
      commission_percent: (await commerceSettingsOf(app)).commission_percent,
    }),
  );

  app.get('/currencies', { config: SITE_CACHE, schema: { tags: ['site'], response: { 200: okEnvelope(z.array(currency)) } } }, async () =>
    ok(await listCurrencies(app.db)),
  );

  app.get('/social-links', { config: SITE_CACHE, schema: { tags: ['site'], response: { 200: okEnvelope(z.array(socialLink)) } } }, async () =>
    ok(await listSocialLinks(app.db)),
  );

  const countries = ISO_COUNTRIES.map(([code, id, title]) => ({ id, code, title }));
  app.get('/countries', { config: publicCache(86_400), schema: { tags: ['site'], response: { 200: okEnvelope(z.array(country)) } } }, async () =>
    ok(countries),
  );

  app.get('/static-pages', { config: SITE_CACHE, schema: { tags: ['site'], response: { 200: okEnvelope(z.array(staticPageSummary)) } } }, async () =>
    ok(await listStaticPages(app.db)),
  );

  app.get(
    '/static-pages/:id',
    {
      config: SITE_CACHE,
      schema: {
        tags: ['site'],
        params: staticPageParams,
        response: { 200: okEnvelope(staticPage) },
      },
    },
    async (request) => {
      const page = await findStaticPage(app.db, request.params.id);
      if (!page) throw notFound('This page does not exist.');
      return ok(page);
    },
  );

  app.get(
    '/localization/:locale/words',
    { config: SITE_CACHE, schema: { tags: ['site'], params: localeParams, response: { 200: okEnvelope(dictionary) } } },
    async (request) => {
      const words = await getDictionary(app.db, request.params.locale);
      if (!words) throw notFound(`No translations exist for the language "${request.params.locale}".`);
      return ok(words);
    },
  );

  app.post('/contact', { schema: { tags: ['site'], body: contactInput, response: { 200: okMessage } } }, async (request) => {
    await enforceRateLimit(app.db, `contact:${request.ip}`, { limit: 5, windowSeconds: 600 }, 'You have sent several messages already.');
    await saveContactMessage(app.db, { ...request.body, userId: request.session?.userId ?? null, ip: request.ip });
    return { status: 'OK' as const, message: 'Thank you! Your message has been sent. We will reply by e-mail within 3 business days.' };
  });
};
