import { z } from 'zod';
import { CATALOG_PAGE_SIZE } from './constants';
import { idParam, limitParam, pageParam, slugOrIdParam } from './fields';

export const favouriteParams = z.object({ productId: idParam('product id') });
export const followParams = z.object({ nickname: slugOrIdParam('creator', 60) });

export const favouritesQuery = z.object({
  page: pageParam,
  limit: limitParam(CATALOG_PAGE_SIZE),
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
