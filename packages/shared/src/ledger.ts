import { z } from 'zod';
import { userProfile } from './auth';
import { currencyParam } from './catalog';
import { pageParam } from './fields';

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

/** What a statement line is (issue 18: every movement of the user's balance, one line each). */
export const statementKind = z.enum(['deposit', 'purchase', 'unlock', 'generation', 'refund', 'sale', 'earnings_release', 'withdrawal', 'adjustment']);
export type StatementKind = z.infer<typeof statementKind>;

/** GET /api/balance/statement?page= (newest first, 20 a page). */
export const statementQuery = z.object({
  page: pageParam,
  currency: currencyParam,
});

/**
 * One movement of the user's balance. `amount` and `balance_after` are in EUR, the ledger's currency
 * (`amount_minor`/`balance_after_minor` in cents); `display` is the same in the requested currency.
 */
export const statementLine = z.object({
  id: z.number().int(),
  /** Epoch seconds. */
  created_at: z.number().int(),
  kind: statementKind,
  /** Which of the user's accounts moved: the balance, or (a creator's) pending or available earnings, or the receivable. */
  account: z.enum(['balance', 'earnings_pending', 'earnings_available', 'earnings_held', 'receivable']).optional(),
  /** What the movement was, in English. */
  description: z.string(),
  /** The same as a coded message (messages.ts: its key and values), for the app to show it in the page's language. */
  description_code: z.string().optional(),
  amount: z.number(),
  amount_minor: z.number().int(),
  balance_after: z.number(),
  balance_after_minor: z.number().int(),
  currency: z.literal('EUR'),
  display: z.object({ amount: z.number(), balance_after: z.number(), currency: z.string(), currencySymbol: z.string() }),
  /** Where the thing it paid for is shown in the app, if anywhere. */
  link: z.string().nullable(),
});
export type StatementLine = z.infer<typeof statementLine>;

export const statementMeta = z.object({ total: z.number().int(), pages: z.number().int(), page: z.number().int(), limit: z.number().int() });
export const statementAnswer = z.object({ status: z.literal('OK'), payload: z.array(statementLine), meta: statementMeta });
export type StatementAnswer = z.infer<typeof statementAnswer>;
