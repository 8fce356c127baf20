import { z } from 'zod';
import { userProfile } from './auth';

/**
 * GET /api/balance, and `balance` in GET /api/user/profile: the user's balance in the internal
 * currency (1 unit = 1 EUR). `amount_minor` is EUR cents; `amount` is converted to the requested
 * display currency like every price.
 */
export const balance = z.object({
  amount: z.number(),
  currency: z.string(),
  currencySymbol: z.string(),
  amount_minor: z.number().int(),
});
export type Balance = z.infer<typeof balance>;

/** GET /api/user/profile: the profile with the balance. */
export const userProfileWithBalance = userProfile.extend({ balance });
export type UserProfileWithBalance = z.infer<typeof userProfileWithBalance>;
