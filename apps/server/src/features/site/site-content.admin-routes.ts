import {
  adminCurrency,
  adminCurrencyParams,
  adminCurrencyUpdate,
  adminIdParams,
  adminPreview,
  adminPreviewInput,
  adminSocialLinkInput,
  adminStaticPage,
  adminStaticPageUpdate,
  okEnvelope,
  socialLink,
} from '@atelier/shared';
import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currencies, socialLinks, staticPages } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { sanitizePageHtml } from '../../lib/sanitize';
import { recordAudit } from '../audit';

type PageRow = typeof staticPages.$inferSelect;
const pageView = (p: PageRow) => ({ id: p.id, slug: p.slug, title: p.title, content: p.content, updated_at: Math.floor(p.updatedAt.getTime() / 1000) });
type CurrencyRow = typeof currencies.$inferSelect;
const currencyView = (c: CurrencyRow) => ({ code: c.code, symbol: c.symbol, rate: c.rate, decimals: c.decimals, is_default: c.isDefault });

/**
 * The site's content for staff, under /api/admin: static pages (sanitised rich text, with a preview
 * of exactly what would be stored), currency rates and social links. Each change is audited.
 */
export const siteContentAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/static-pages', { config: guard('admin'), schema: { tags: ['admin'], response: { 200: okEnvelope(z.array(adminStaticPage)) } } }, async () =>
    ok((await app.db.select().from(staticPages).orderBy(asc(staticPages.position), asc(staticPages.id))).map(pageView)),
  );

  app.post(
    '/static-pages/preview',
    { config: guard('admin'), schema: { tags: ['admin'], body: adminPreviewInput, response: { 200: okEnvelope(adminPreview) } } },
    async (request) => ok({ content: sanitizePageHtml(request.body.content) }),
  );

  app.put(
    '/static-pages/:id',
    { config: guard('admin'), schema: { tags: ['admin'], params: adminIdParams, body: adminStaticPageUpdate, response: { 200: okEnvelope(adminStaticPage) } } },
    async (request) => {
      const staffId = request.user!.id;
      const row = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(staticPages).where(eq(staticPages.id, request.params.id)).for('update');
        if (!before) throw notFound('This page does not exist.');
        const [after] = await tx
          .update(staticPages)
          .set({ title: request.body.title, content: sanitizePageHtml(request.body.content), updatedAt: new Date() })
          .where(eq(staticPages.id, before.id))
          .returning();
        await recordAudit(tx, {
          staffId,
          action: 'static_page.update',
          subjectType: 'static_page',
          subjectId: before.id,
          before: { title: before.title, content: before.content },
          after: { title: after!.title, content: after!.content },
        });
        return after!;
      });
      return ok(pageView(row), 'The page is saved.');
    },
  );

  app.get('/currencies', { config: guard('admin'), schema: { tags: ['admin'], response: { 200: okEnvelope(z.array(adminCurrency)) } } }, async () =>
    ok((await app.db.select().from(currencies).orderBy(asc(currencies.position), asc(currencies.code))).map(currencyView)),
  );

  /** A new rate reaches every app server's prices at once (the currencies trigger notifies `catalog`). */
  app.put(
    '/currencies/:code',
    {
      config: guard('admin'),
      schema: { tags: ['admin'], params: adminCurrencyParams, body: adminCurrencyUpdate, response: { 200: okEnvelope(adminCurrency) } },
    },
    async (request) => {
      const staffId = request.user!.id;
      const row = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(currencies).where(eq(currencies.code, request.params.code)).for('update');
        if (!before) throw notFound('This currency does not exist.');
        // The base currency is worth exactly itself.
        const rate = before.isDefault ? '1' : request.body.rate;
        const [after] = await tx.update(currencies).set({ rate, symbol: request.body.symbol }).where(eq(currencies.code, before.code)).returning();
        await recordAudit(tx, {
          staffId,
          action: 'currency.update',
          subjectType: 'currency',
          subjectId: 0,
          before: { code: before.code, rate: before.rate, symbol: before.symbol },
          after: { code: after!.code, rate: after!.rate, symbol: after!.symbol },
        });
        return after!;
      });
      return ok(currencyView(row), 'The currency is saved.');
    },
  );

  app.get('/social-links', { config: guard('admin'), schema: { tags: ['admin'], response: { 200: okEnvelope(z.array(socialLink)) } } }, async () =>
    ok(
      await app.db
        .select({ id: socialLinks.id, url: socialLinks.url, image: socialLinks.image })
        .from(socialLinks)
        .orderBy(asc(socialLinks.position), asc(socialLinks.id)),
    ),
  );

  app.put(
    '/social-links/:id',
    { config: guard('admin'), schema: { tags: ['admin'], params: adminIdParams, body: adminSocialLinkInput, response: { 200: okEnvelope(socialLink) } } },
    async (request) => {
      const staffId = request.user!.id;
      const row = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(socialLinks).where(eq(socialLinks.id, request.params.id)).for('update');
        if (!before) throw notFound('This link does not exist.');
        const [after] = await tx.update(socialLinks).set(request.body).where(eq(socialLinks.id, before.id)).returning();
        await recordAudit(tx, {
          staffId,
          action: 'social_link.update',
          subjectType: 'social_link',
          subjectId: before.id,
          before: { url: before.url, image: before.image },
          after: { url: after!.url, image: after!.image },
        });
        return after!;
      });
      return ok({ id: row.id, url: row.url, image: row.image }, 'The link is saved.');
    },
  );
};
