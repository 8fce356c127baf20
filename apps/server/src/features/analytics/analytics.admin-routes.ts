import { ANALYTICS_CSV_COLUMNS, analyticsQuery, okEnvelope, platformAnalytics as platformAnswer } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { analyticsCsv, platformAnalytics } from './analytics.queries';
import { viewCounterOf } from './views';

/** The back office's analytics, under /api/admin: every sale, the commission earned, the most viewed and sold works. */
export const analyticsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['admin'];
  async function report(request: Parameters<typeof requestedCurrency>[0] & { query: ReturnType<typeof analyticsQuery.parse> }) {
    await viewCounterOf(app.db).flush();
    return platformAnalytics(app.db, request.query, await resolveDisplayCurrency(app, requestedCurrency(request)));
  }

  app.get(
    '/analytics',
    { config: guard('admin'), schema: { tags, querystring: analyticsQuery, response: { 200: okEnvelope(platformAnswer) } } },
    async (request) => ok(await report(request)),
  );

  app.get('/analytics.csv', { config: guard('admin'), schema: { tags, querystring: analyticsQuery } }, async (request, reply) => {
    const answer = await report(request);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="platform-sales-${answer.from}-${answer.to}.csv"`)
      .header('cache-control', 'private, no-store')
      .send(analyticsCsv(answer, ANALYTICS_CSV_COLUMNS));
  });
};
