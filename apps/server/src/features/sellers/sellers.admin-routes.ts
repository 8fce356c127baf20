import { adminSellerDetails, dac7Query, dac7Report as dac7ReportView, idParam, okEnvelope } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { dac7Csv, dac7Report, sellerDetailsHistoryOf } from './sellers';

/** Staff: a seller's trader details with their history, and the yearly DAC7 report in JSON and CSV (issue 33). */
export const sellersAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['admin'];

  app.get(
    '/users/:id/seller-details',
    { config: guard('admin'), schema: { tags, params: z.object({ id: idParam('user id') }), response: { 200: okEnvelope(adminSellerDetails) } } },
    async (request) => ok(await sellerDetailsHistoryOf(app.db, request.params.id)),
  );

  app.get('/dac7', { config: guard('admin'), schema: { tags, querystring: dac7Query, response: { 200: okEnvelope(dac7ReportView) } } }, async (request) =>
    ok(await dac7Report(app.db, request.query.year)),
  );

  app.get('/dac7.csv', { config: guard('admin'), schema: { tags, querystring: dac7Query } }, async (request, reply) => {
    const csv = dac7Csv(await dac7Report(app.db, request.query.year));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="dac7-${request.query.year}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
};
