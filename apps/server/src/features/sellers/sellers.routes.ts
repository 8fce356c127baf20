import { okEnvelope, sellerDetailsAnswer, sellerDetailsInput, sellerDetails as sellerDetailsView } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { findSellerDetails, saveSellerDetails } from './sellers';

/** A creator's own trader details (issue 33). */
export const sellersRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['sellers'];

  app.get('/user/seller-details', { config: guard('user'), schema: { tags, response: { 200: sellerDetailsAnswer } } }, async (request) =>
    ok(await findSellerDetails(app.db, currentUser(request).id)),
  );

  app.put(
    '/user/seller-details',
    { config: guard('user'), schema: { tags, body: sellerDetailsInput, response: { 200: okEnvelope(sellerDetailsView) } } },
    async (request) => {
      const saved = await saveSellerDetails(app.db, currentUser(request).id, request.body);
      request.log.info({ kind: saved.kind }, 'seller details saved');
      return ok(saved, 'Your trader details are saved.');
    },
  );
};
