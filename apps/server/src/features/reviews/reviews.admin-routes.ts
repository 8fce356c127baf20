import { okMessage, reviewHideInput, reviewIdParams } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, guard } from '../../lib/auth-guard';
import { hideReview } from './reviews.queries';

/** Staff moderation of reviews, under /api/admin: hiding is audited in its transaction. */
export const reviewsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/reviews/:id/hide',
    { config: guard('admin'), schema: { tags: ['admin'], params: reviewIdParams, body: reviewHideInput, response: { 200: okMessage } } },
    async (request) => {
      await hideReview(app.db, currentUser(request).id, request.params.id, request.body.reason);
      return { status: 'OK' as const, message: 'The review is hidden.' };
    },
  );
};
