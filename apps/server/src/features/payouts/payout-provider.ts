import { randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import { createStripePayoutProvider } from './stripe/stripe-payout-provider';

export type {
  CardDetails,
  DestinationInput,
  PayoutLookup,
  PayoutMethod,
  PayoutOrder,
  PayoutOutcome,
  PayoutProvider,
  PayoutProviderName,
  RegisteredDestination,
} from './payout-types';

import type { PayoutMethod, PayoutProvider, PayoutProviderName } from './payout-types';

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
