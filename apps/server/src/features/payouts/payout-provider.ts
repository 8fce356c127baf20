import { randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import { createStripePayoutProvider } from './stripe/stripe-payout-provider';

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

export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^6(011|5)/.test(number)) return 'discover';
  return 'card';
}

/** A card number whose payouts the sandbox fails, as Stripe's decline test card: any Luhn-valid number ending in 0002. */
export const SANDBOX_FAILING_CARD_SUFFIX = '0002';
export const SANDBOX_CARD_FAILURE = 'The card issuer declined the payout.';

/**
 * The sandbox (the local default): a card becomes a token that says how its payout will end (numbers
 * ending in 0002 fail, as Stripe's decline card), and the job pays it SANDBOX_PAYOUT_DELAY_S after the
 * request. SEPA transfers wait for staff, as a real bank transfer from the platform's account would.
 */
export function createSandboxPayoutProvider(opts: { delaySeconds: number }): PayoutProvider {
  /** The payouts this sandbox paid, by payout id: what `lookup` answers from (this process only). */
  const paid = new Map<number, string>();
  return {
    name: 'sandbox',
    sendDelayMs: opts.delaySeconds * 1000,
    handles: (method) => (method === 'card' ? 'provider' : 'staff'),
    async registerDestination(input) {
      if (input.method === 'sepa') return { token: null };
      const { number } = input.card;
      const outcome = number.endsWith(SANDBOX_FAILING_CARD_SUFFIX) ? 'fail' : 'ok';
      return { token: `sbx_card_${outcome}_${randomBytes(8).toString('hex')}`, brand: cardBrand(number), last4: number.slice(-4) };
    },
    async sendPayout(order) {
      const providerRef = `sbx_po_${order.payoutId}`;
      if (order.token.startsWith('sbx_card_ok_')) {
        paid.set(order.payoutId, providerRef);
        return { state: 'paid', providerRef };
      }
      if (order.token.startsWith('sbx_card_fail_')) return { state: 'failed', reason: SANDBOX_CARD_FAILURE, providerRef };
      return { state: 'failed', reason: 'The sandbox does not know this card token.', providerRef };
    },
    async lookup(payoutId) {
      const providerRef = paid.get(payoutId);
      return providerRef ? { state: 'paid', providerRef } : { state: 'not_paid' };
    },
  };
}

/**
 * Manual (the production default without Stripe): no provider is called. A bank transfer waits in the
 * back office's payouts queue (and its pain.001 export) until staff mark it paid with the transfer's
 * reference, or failed with a reason. A card cannot be paid by hand without its number, which is
 * never kept, so card payouts are refused.
 */
export function createManualPayoutProvider(): PayoutProvider {
  return {
    name: 'manual',
    sendDelayMs: 0,
    handles: (method) => (method === 'sepa' ? 'staff' : null),
    async registerDestination() {
      return { token: null };
    },
    async sendPayout() {
      throw new Error('Manual payouts are ended by staff in the back office.');
    },
    async lookup() {
      // Nothing is sent through a provider here: only staff know whether their bank transfer went out.
      return { state: 'unknown' };
    },
  };
}

/** The methods creators may choose under each provider (the web's payout form offers only these). */
const METHODS: Record<PayoutProviderName, PayoutMethod[]> = { sandbox: ['card', 'sepa'], manual: ['sepa'], stripe: ['card', 'sepa'] };
export const payoutMethodsFor = (config: Config): PayoutMethod[] => METHODS[config.payouts.provider];

/** The provider PAYOUT_PROVIDER names (config.ts checks Stripe's variables). */
export function payoutProviderFor(config: Config): PayoutProvider {
  switch (config.payouts.provider) {
    case 'stripe':
      return createStripePayoutProvider(config);
    case 'manual':
      return createManualPayoutProvider();
    default:
      return createSandboxPayoutProvider({ delaySeconds: config.payments.sandboxPayoutDelaySeconds });
  }
}
