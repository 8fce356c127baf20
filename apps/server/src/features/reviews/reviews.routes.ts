import {
  okEnvelope,
  okMessage,
  productReviewsParams,
  review,
  reviewAnswer,
  reviewIdParams,
  reviewInput,
  reviewReplyInput,
  reviewReportInput,
  reviewsPage,
  reviewsQuery,
} from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { createReview, deleteReview, listReviews, replyToReview, reportReview, updateReview } from './reviews.queries';

/** Reviews and ratings (issue 20): buyers write, authors reply once, anyone signed in reports. */
export const reviewsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['reviews'];

  app.get(
    '/products/:id/reviews',
    { schema: { tags, params: productReviewsParams, querystring: reviewsQuery, response: { 200: reviewsPage } } },
    async (request) => {
      const { page, sort } = request.query;
      const found = await listReviews(app.db, request.params.id, { page, sort, readerId: request.session?.userId ?? null });
      const meta = { ...found.meta, mine: found.mine, can_review: found.canReview, is_author: found.isAuthor };
      return { status: 'OK' as const, payload: found.payload, meta };
    },
  );

  app.post(
    '/products/:id/reviews',
    { config: guard('user'), schema: { tags, params: productReviewsParams, body: reviewInput, response: { 200: reviewAnswer } } },
    async (request) => {
      const user = currentUser(request);
      return ok(await createReview(app.db, user, request.params.id, request.body));
    },
  );

  app.put(
    '/reviews/:id',
    { config: guard('user'), schema: { tags, params: reviewIdParams, body: reviewInput, response: { 200: reviewAnswer } } },
    async (request) => {
      const user = currentUser(request);
      return ok(await updateReview(app.db, user, request.params.id, request.body));
    },
  );

  app.delete('/reviews/:id', { config: guard('user'), schema: { tags, params: reviewIdParams, response: { 200: okMessage } } }, async (request) => {
    await deleteReview(app.db, currentUser(request).id, request.params.id);
    return { status: 'OK' as const, message: 'Your review was deleted.' };
  });

  app.post(
    '/reviews/:id/reply',
    { config: guard('user'), schema: { tags, params: reviewIdParams, body: reviewReplyInput, response: { 200: okEnvelope(review) } } },
    async (request) => ok(await replyToReview(app.db, currentUser(request).id, request.params.id, request.body.text)),
  );

  app.post(
    '/reviews/:id/report',
    { config: guard('user'), schema: { tags, params: reviewIdParams, body: reviewReportInput, response: { 200: okMessage } } },
    async (request) => {
      await reportReview(app.db, currentUser(request).id, request.params.id, request.body.reason);
      return { status: 'OK' as const, message: 'Thank you. Staff will look at this review.' };
    },
  );
};
