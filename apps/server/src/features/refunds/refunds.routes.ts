import { idParam, okEnvelope, refundRequest, refundRequestCreated, refundRequestInput, refundRequestsQuery, refundRespondInput } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { createRefundRequest, decideRefund, findMyRefundRequest, listMyRefundRequests, respondToRefund } from './refunds';

const orderIdParams = z.object({ id: idParam('order id') });
const requestIdParams = z.object({ id: idParam('refund request id') });
const tags = ['refunds'];

/**
 * Buyer protection for buyers and creators: ask for a refund (`{id}` is the order; for a chat unlock,
 * the chat), see one's requests on both sides, and for the creator answer once or accept.
 */
export const refundsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/orders/:id/refund-request',
    { config: guard('user'), schema: { tags, params: orderIdParams, body: refundRequestInput, response: { 200: refundRequestCreated } } },
    async (request) => {
      const me = currentUser(request);
      const created = await createRefundRequest(app.db, app.config.publicUrl, me.id, request.params.id, request.body);
      app.metrics.money('refunds', 'requested');
      request.log.info({ refundRequestId: created.id }, 'refund requested');
      return ok(created, 'Your refund request was sent.');
    },
  );

  app.get(
    '/refund-requests',
    { config: guard('user'), schema: { tags, querystring: refundRequestsQuery, response: { 200: okEnvelope(z.array(refundRequest)) } } },
    async (request) => {
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      return ok(await listMyRefundRequests(app.db, currentUser(request).id, currency, request.query.status));
    },
  );

  app.post(
    '/refund-requests/:id/respond',
    { config: guard('user'), schema: { tags, params: requestIdParams, body: refundRespondInput, response: { 200: okEnvelope(refundRequest) } } },
    async (request) => {
      const me = currentUser(request);
      await respondToRefund(app.db, app.config.publicUrl, me.id, request.params.id, request.body.message);
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      return ok(await findMyRefundRequest(app.db, me.id, request.params.id, currency), 'Your answer was sent.');
    },
  );

  app.post(
    '/refund-requests/:id/accept',
    { config: guard('user'), schema: { tags, params: requestIdParams, response: { 200: okEnvelope(refundRequest) } } },
    async (request) => {
      const me = currentUser(request);
      await decideRefund(app.db, app.config.publicUrl, { id: request.params.id, userId: me.id, actor: 'creator', decision: 'refund' });
      app.metrics.money('refunds', 'refunded');
      request.log.info({ refundRequestId: request.params.id }, 'refund accepted by the creator');
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      return ok(await findMyRefundRequest(app.db, me.id, request.params.id, currency), 'The buyer has been refunded.');
    },
  );
};
