import { ANALYTICS_CSV_COLUMNS, analyticsQuery, okEnvelope, sellerAnalytics as sellerAnswer } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { analyticsCsv, sellerAnalytics } from './analytics.queries';
import { purgeOldViewVisitors, startViewFlushing, viewCounterOf } from './views';

export const PURGE_VIEW_VISITORS = 'analytics.purge_view_visitors';

/** A creator's own analytics (issue 20): only ever the signed-in user's works and sales. */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['analytics'];
  startViewFlushing(app.db, app.log, (hook) => app.addHook('onClose', hook));
  app.jobs.register(PURGE_VIEW_VISITORS, async (_payload, ctx) => {
    await purgeOldViewVisitors(ctx.db);
  });
  app.jobs.schedule(PURGE_VIEW_VISITORS, 3600);

  async function report(request: Parameters<typeof requestedCurrency>[0] & { query: ReturnType<typeof analyticsQuery.parse> }) {
    // This process's views noted but not yet written count too.
    await viewCounterOf(app.db).flush();
    const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
    return sellerAnalytics(app.readDb, currentUser(request).id, request.query, currency);
  }

  app.get(
    '/seller/analytics',
    { config: guard('user'), schema: { tags, querystring: analyticsQuery, response: { 200: okEnvelope(sellerAnswer) } } },
    async (request) => ok(await report(request)),
  );

  app.get('/seller/analytics.csv', { config: guard('user'), schema: { tags, querystring: analyticsQuery } }, async (request, reply) => {
    const answer = await report(request);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="sales-${answer.from}-${answer.to}.csv"`)
      .header('cache-control', 'private, no-store')
      .send(analyticsCsv(answer, ANALYTICS_CSV_COLUMNS));
  });
};
