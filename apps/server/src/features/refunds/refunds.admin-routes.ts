import { adminRefundRequest, adminRefundRequestsQuery, idParam, okEnvelope, refundResolveInput } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chatMessages, refundRequests } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { sendStoredFile } from '../../lib/storage';
import { decideRefund, listAdminRefundRequests, REFUND_MESSAGES } from './refunds';

const requestIdParams = z.object({ id: idParam('refund request id') });
const tags = ['admin'];

/** Staff refunds queue and receivables, under /api/admin. */
export const refundsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/refund-requests',
    { config: guard('admin'), schema: { tags, querystring: adminRefundRequestsQuery, response: { 200: okEnvelope(z.array(adminRefundRequest)) } } },
    async (request) => {
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      return ok(await listAdminRefundRequests(app.db, currency, request.query.status));
    },
  );

  /** Refund or reject, with a note for both parties: audited, both notified (bell, live event, e-mail). */
  app.post(
    '/refund-requests/:id/resolve',
    {
      config: { ...guard('admin'), stepUp: true },
      schema: { tags, params: requestIdParams, body: refundResolveInput, response: { 200: okEnvelope(adminRefundRequest) } },
    },
    async (request) => {
      const staffId = request.user!.id;
      const { decision, note } = request.body;
      await decideRefund(app.db, app.config.publicUrl, { id: request.params.id, userId: staffId, actor: 'staff', decision, note });
      app.metrics.money('refunds', decision === 'refund' ? 'refunded' : 'rejected');
      request.log.info({ refundRequestId: request.params.id, decision, by: staffId }, 'refund request resolved by staff');
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      const [answer] = await listAdminRefundRequests(app.db, currency, undefined, request.params.id);
      return ok(answer!, decision === 'refund' ? 'The buyer has been refunded.' : 'The refund request was rejected.');
    },
  );

  /** A chat image in question, for staff to look at (they are not in the chat). */
  app.get('/refund-requests/:id/file', { config: guard('admin'), compress: false, schema: { tags, params: requestIdParams } }, async (request, reply) => {
    const [row] = await app.db
      .select({ key: chatMessages.attachmentKey, name: chatMessages.attachmentName })
      .from(refundRequests)
      .innerJoin(chatMessages, eq(chatMessages.id, refundRequests.chatMessageId))
      .where(eq(refundRequests.id, request.params.id))
      .limit(1);
    if (!row?.key) throw notFound(REFUND_MESSAGES.notFound);
    return sendStoredFile(reply, app.storage, row.key, { disposition: 'inline', filename: row.name ?? undefined, notFoundMessage: 'This file was not found.' });
  });
};
