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
  visitorCountry,
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
      withdrawal_min: (await commerceSettingsOf(app)).withdrawal_min,
    }),
  );

  app.get('/currencies', { config: SITE_CACHE, schema: { tags: ['site'], response: { 200: okEnvelope(z.array(currency)) } } }, async () =>
    ok(await listCurrencies(app.db)),
  );

  app.get('/social-links', { config: SITE_CACHE, schema: { tags: ['site'], response: { 200: okEnvelope(z.array(socialLink)) } } }, async () =>
    ok(await listSocialLinks(app.db)),
  );

  const countries = ISO_COUNTRIES.map(([code, id, title]) => ({ id, code, title }));
  const isoCodes = new Set(ISO_COUNTRIES.map(([code]) => code));
  // Per visitor, so never shared by a cache. The address decides when a GeoIP database knows it; the
  // browser's language region ("de-AT") otherwise. The web falls back to the browser's time zone.
  app.get('/visitor/country', { schema: { tags: ['site'], response: { 200: okEnvelope(visitorCountry) } } }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    const byAddress = app.geoip.country(request.ip);
    if (byAddress && isoCodes.has(byAddress)) return ok({ country: byAddress, source: 'address' as const });
    const byLanguage = languageRegion(request.headers['accept-language'], isoCodes);
    return ok({ country: byLanguage, source: byLanguage ? ('language' as const) : null });
  });
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

/**
 * The first region named by an Accept-Language header, in the visitor's order of preference:
 * "de-AT,de;q=0.9" → "AT". Languages without a region ("de") name no country.
 */
export function languageRegion(header: string | undefined, known: Set<string>): string | null {
  if (!header || header.length > 500) return null;
  const tags = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((t) => t.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of tags) {
    const region = tag
      .split('-')
      .slice(1)
      .find((sub) => /^[A-Za-z]{2}$/.test(sub))
      ?.toUpperCase();
    if (region && known.has(region)) return region;
  }
  return null;
}
