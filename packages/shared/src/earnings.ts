import { z } from 'zod';
import { decimalAmount } from './fields';
import { balance } from './ledger';
import { cardPayoutFields, checkCardExpiry, payoutStatus, sepaPayoutFields } from './payouts';

/**
 * A creator's earnings (issue 19): their share of each sale is pending for the clearing period
 * (setting earnings_clearing_days), then available: spent after the balance, or withdrawn.
 */

/** GET /api/earnings: each amount in the shape of /balance. */
export const earningsSummary = z.object({
  pending: balance,
  available: balance,
  /** Withdrawals paid or on their way (processing). */
  withdrawn: balance,
  /** Everything earned from sales and unlocks, after commission. */
  lifetime: balance,
  /** When the oldest pending earnings become available (unix seconds), or null with nothing pending. */
  next_release_at: z.number().int().nullable(),
  /** Earnings on hold while a buyer's refund request on them is open (issue 30): neither spendable nor withdrawable. */
  held: balance,
  /** What the creator owes (refunds of money already withdrawn, or a chargeback), paid from their next earnings first; 0 when nothing. */
  owed: balance,
});
export type EarningsSummary = z.infer<typeof earningsSummary>;

const withdrawAmount = decimalAmount('amount');

/** POST /api/earnings/withdraw: an amount in EUR and the same payout details as an offer's payout. */
export const withdrawInput = z.discriminatedUnion(
  'method',
  [
    cardPayoutFields.extend({ method: z.literal('card'), amount: withdrawAmount }).superRefine(checkCardExpiry),
    sepaPayoutFields.extend({ method: z.literal('sepa'), amount: withdrawAmount }),
  ],
  { error: 'The method must be card or sepa.' },
);
export type WithdrawInput = z.infer<typeof withdrawInput>;

export const withdrawal = z.object({
  id: z.number().int(),
  status: payoutStatus,
  amount: balance,
  method: z.enum(['card', 'sepa']),
  /** "visa •••• 4242" or "DE89 •••• 3000". */
  destination: z.string(),
  /** Why it failed (the money is back in available earnings). */
  failure_reason: z.string().nullable(),
  created_at: z.number().int(),
});
export type Withdrawal = z.infer<typeof withdrawal>;

/** The answer to POST /api/earnings/withdraw: `{status: "OK", withdrawal}` (plus the envelope's payload). */
export const withdrawResult = z.object({ withdrawal });
