import { balance, currencyParam, okEnvelope, statementAnswer, statementQuery } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { balanceAnswer } from './balance';
import { statementCsv, statementPage } from './statement';

export const ledgerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/balance', { config: guard('user'), schema: { tags: ['ledger'], response: { 200: okEnvelope(balance) } } }, async (request) => {
    const userId = currentUser(request).id;
    const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
    return ok(await balanceAnswer(app.db, userId, currency));
  });

  // Every movement of the signed-in user's balance, newest first (issue 18: deposits, purchases,
  // unlocks, generations, refunds, sales, adjustments), in EUR and the display currency.
  app.get(
    '/balance/statement',
    { config: guard('user'), schema: { tags: ['ledger'], querystring: statementQuery, response: { 200: statementAnswer } } },
    async (request) => {
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      const { lines, meta } = await statementPage(app.db, currentUser(request).id, request.query.page, currency);
      return { status: 'OK' as const, payload: lines, meta };
    },
  );

  app.get(
    '/balance/statement.csv',
    {
      config: guard('user'),
      schema: { tags: ['ledger'], querystring: z.object({ currency: currencyParam }), produces: ['text/csv'], response: { 200: z.string() } },
    },
    async (request, reply) => {
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      const csv = await statementCsv(app.db, currentUser(request).id, currency);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="atelier-statement.csv"');
      return csv;
    },
  );
};
