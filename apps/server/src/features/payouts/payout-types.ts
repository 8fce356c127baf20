/** The payout provider's contract: what the creator gives, what a payout asks and answers. */
export type PayoutMethod = 'card' | 'sepa';
export type PayoutProviderName = 'sandbox' | 'manual' | 'stripe';

export type CardDetails = { number: string; expMonth: number; expYear: number; holder: string };

/** What the creator typed: handed to the provider once, before the transaction, and never stored. */
export type DestinationInput = { method: 'card'; card: CardDetails } | { method: 'sepa'; iban: string; name: string };

/**
 * What may be stored of a destination. `token` is the provider's stand-in for the card or account
 * (the job pays to it); null means staff pay this payout from the back office. Brand and last four
 * are for people to recognise the card.
 */
export type RegisteredDestination = { token: string | null; brand?: string; last4?: string };

/** A payout as the job hands it to the provider: the token, never a card number. */
export type PayoutOrder = {
  payoutId: number;
  /** The payout's id: a job that runs twice (a crash, a retry) pays once. */
  idempotencyKey: string;
  amountMinor: number;
  currency: string;
  method: PayoutMethod;
  token: string;
  /** The creator's account at the provider from an earlier payout (Stripe Connect), if any. */
  account: string | null;
  holderName: string;
  contact: { first_name?: string; last_name?: string; email?: string; phone?: string; address?: string; city?: string; post_code?: string };
  userId: number;
};

/**
 * How the provider answered. `pending`: it has the payout but not the result yet (the job asks again).
 * `account`: the creator's account at the provider, kept for the next payout.
 */
export type PayoutOutcome =
  | { state: 'paid'; providerRef: string; account?: string }
  | { state: 'failed'; reason: string; providerRef?: string; account?: string }
  | { state: 'pending'; providerRef?: string; account?: string };

/**
 * What the provider says when asked by payout id whether it paid (issue 30 finding 5). `not_paid`: it
 * has no transfer for this payout and will make none; `unknown`: it cannot say now (ask again later).
 */
export type PayoutLookup = { state: 'paid'; providerRef: string } | { state: 'not_paid' } | { state: 'unknown' };

/**
 * Sends a creator's money out (PAYOUT_PROVIDER). Two steps, as real providers work:
 * `registerDestination` runs before the database transaction and is the one place a card number or
 * IBAN is handed over (the answer is what may be stored); `sendPayout` runs in the `payout.settle`
 * job after the commit, keyed by the payout's id, and is the only call that moves money.
 * Offers pay through it today; creator withdrawals will go through the same two calls and the same job.
 */
export interface PayoutProvider {
  readonly name: PayoutProviderName;
  /** Who ends a payout by this method: the provider (the job calls it), staff (the back office), or nobody here (refused). */
  handles(method: PayoutMethod): 'provider' | 'staff' | null;
  /** The job's first call waits this long (the sandbox's SANDBOX_PAYOUT_DELAY_S); 0 for a real provider. */
  readonly sendDelayMs: number;
  registerDestination(input: DestinationInput, who: { userId: number; email: string }): Promise<RegisteredDestination>;
  sendPayout(order: PayoutOrder): Promise<PayoutOutcome>;
  /** Whether the provider paid the payout `payoutId` (the key `sendPayout` was given); read-only, safe to repeat. */
  lookup(payoutId: number): Promise<PayoutLookup>;
}
