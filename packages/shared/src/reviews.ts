import { z } from 'zod';
import { okEnvelope } from './envelope';
import { idParam, pageParam, text } from './fields';

export const REVIEW_TEXT_MAX = 2000;
export const REVIEWS_PAGE_SIZE = 10;
/** A buyer may edit or delete their review for this many days after writing it. */
export const REVIEW_EDIT_DAYS = 30;

import { REVIEW_SORTS } from './constants';

export { REVIEW_SORTS };
export type ReviewSort = (typeof REVIEW_SORTS)[number];

export const ONLY_BUYERS_MAY_REVIEW = 'Only buyers of this work can review it.';

const rating = z.coerce
  .number({ error: 'Please choose a rating from 1 to 5 stars.' })
  .int('Please choose a rating from 1 to 5 stars.')
  .min(1, 'Please choose a rating from 1 to 5 stars.')
  .max(5, 'Please choose a rating from 1 to 5 stars.');

const reviewText = text('review').trim().max(REVIEW_TEXT_MAX, `The review may have at most ${REVIEW_TEXT_MAX} characters.`).default('');

/** POST /products/{id}/reviews and PUT /reviews/{id}: the stars and an optional text. */
export const reviewInput = z.object({ rating, text: reviewText });
export type ReviewInput = z.input<typeof reviewInput>;

/** POST /reviews/{id}/reply: the product's author answers once. */
export const reviewReplyInput = z.object({
  text: text('reply').trim().min(1, 'Please write a reply.').max(REVIEW_TEXT_MAX, `The reply may have at most ${REVIEW_TEXT_MAX} characters.`),
});
export type ReviewReplyInput = z.infer<typeof reviewReplyInput>;

/** POST /reviews/{id}/report: any signed-in user; the reason is optional. */
export const reviewReportInput = z.object({
  reason: text('reason').trim().max(500, 'The reason may have at most 500 characters.').default(''),
});

/** POST /admin/reviews/{id}/hide: staff say why. */
export const reviewHideInput = z.object({
  reason: text('reason', { error: 'Please give a reason.' }).trim().min(1, 'Please give a reason.').max(500, 'The reason may have at most 500 characters.'),
});

export const reviewIdParams = z.object({ id: idParam('review id') });
export const productReviewsParams = z.object({ id: idParam('product id') });

export const reviewsQuery = z.object({
  page: pageParam,
  sort: z.enum(REVIEW_SORTS, { error: `The sort must be one of: ${REVIEW_SORTS.join(', ')}.` }).default('newest'),
});
export type ReviewsQuery = z.input<typeof reviewsQuery>;

export const review = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  rating: z.number().int(),
  text: z.string(),
  /** ISO 8601. */
  created_at: z.string(),
  edited_at: z.string().nullable(),
  author: z.object({ nickname: z.string(), avatar: z.string().nullable() }),
  reply: z.object({ text: z.string(), created_at: z.string() }).nullable(),
  /**
   * Issue 31 item 7: the writer owns the work through a purchase that stands (a successful order, not
   * refunded). A buyer whose purchase was refunded keeps their review, marked `refunded: true` and
   * `verified_purchase: false`; `refunded` is false otherwise.
   */
  verified_purchase: z.boolean(),
  refunded: z.boolean(),
});
export type Review = z.infer<typeof review>;

export const reviewAnswer = okEnvelope(review);

export const ratingCounts = z.object({ 1: z.number().int(), 2: z.number().int(), 3: z.number().int(), 4: z.number().int(), 5: z.number().int() });

export const reviewsMeta = z.object({
  total: z.number().int(),
  pages: z.number().int(),
  page: z.number().int(),
  /** One decimal; 0 without reviews. */
  average: z.number(),
  counts: ratingCounts,
});
export type ReviewsMeta = z.infer<typeof reviewsMeta>;

/** GET /products/{id}/reviews: `meta.mine` is the signed-in reader's own review (even hidden), or null. */
export const reviewsPage = z.object({
  status: z.literal('OK'),
  payload: z.array(review),
  meta: reviewsMeta.extend({
    mine: review.nullable(),
    /** Whether the reader may write a review now (a buyer without one). */
    can_review: z.boolean(),
    /** Whether the reader is the product's author (may reply). */
    is_author: z.boolean(),
  }),
});
export type ReviewsPage = z.infer<typeof reviewsPage>;

/** An average with one decimal from a kept sum and count; 0 without ratings. */
export function ratingAverage(sum: number, count: number): number {
  return count > 0 ? Math.round((sum / count) * 10) / 10 : 0;
}
