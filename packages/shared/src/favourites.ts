import { z } from 'zod';
import { CATALOG_MAX_PAGE_SIZE, CATALOG_PAGE_SIZE } from './constants';
import { idParam, slugOrIdParam } from './fields';

export const favouriteParams = z.object({ productId: idParam('product id') });
export const followParams = z.object({ nickname: slugOrIdParam('creator', 60) });

export const favouritesQuery = z.object({
  page: z.coerce
    .number({ error: 'The page must be a whole number from 1.' })
    .int('The page must be a whole number from 1.')
    .min(1, 'The page must be a whole number from 1.')
    .max(100_000, 'The page is too large.')
    .default(1),
  limit: z.coerce
    .number({ error: `The limit must be a whole number from 1 to ${CATALOG_MAX_PAGE_SIZE}.` })
    .int()
    .min(1, `The limit must be a whole number from 1 to ${CATALOG_MAX_PAGE_SIZE}.`)
    .max(CATALOG_MAX_PAGE_SIZE, `The limit must be a whole number from 1 to ${CATALOG_MAX_PAGE_SIZE}.`)
    .default(CATALOG_PAGE_SIZE),
});

/** POST/DELETE /favourites/{productId}: whether it is a favourite now. */
export const favouriteState = z.object({ product_id: z.number().int(), favourite: z.boolean() });
export type FavouriteState = z.infer<typeof favouriteState>;

/** GET /favourites/ids: the signed-in user's favourite product ids (hearts on cards). */
export const favouriteIds = z.array(z.number().int());

/** POST/DELETE /creators/{nickname}/follow. */
export const followState = z.object({ nickname: z.string(), following: z.boolean(), followers_count: z.number().int() });
export type FollowState = z.infer<typeof followState>;

/** GET /user/following: the creators the signed-in user follows, newest first. */
export const followedCreator = z.object({
  id: z.number().int(),
  nickname: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  followed_at: z.string(),
});
export type FollowedCreator = z.infer<typeof followedCreator>;
