import { balance, okEnvelope } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { balanceAnswer } from './balance';

export const ledgerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/balance', { config: guard('user'), schema: { tags: ['ledger'], response: { 200: okEnvelope(balance) } } }, async (request) => {
    const userId = currentUser(request).id;
    const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
    return ok(await balanceAnswer(app.db, userId, currency));
  });
};
