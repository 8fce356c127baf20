import { randomBytes } from 'node:crypto';

/**
 * Sends a creator's money out. The card number is handed to the provider here and nowhere else:
 * the answer carries only what may be stored (brand, last four, the provider's reference).
 * One implementation today, the built-in sandbox; a real provider (Stripe Connect, a bank's API)
 * plugs in behind the same three calls.
 */
export interface PayoutProvider {
  readonly name: 'sandbox';
  startCardPayout(p: {
    payoutId: number;
    amountMinor: number;
    currency: string;
    card: CardDetails;
  }): Promise<{ providerRef: string; brand: string; last4: string }>;
  startSepaPayout(p: { payoutId: number; amountMinor: number; currency: string; iban: string; name: string }): Promise<{ providerRef: string }>;
  /** How a payout ended, asked by the settle job; `pending` means ask again later (or staff decide, for SEPA). */
  payoutOutcome(providerRef: string): Promise<{ state: 'paid' } | { state: 'failed'; reason: string } | { state: 'pending' }>;
}

export type CardDetails = { number: string; expMonth: number; expYear: number; holder: string };

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
 * The sandbox: card payouts succeed, except numbers ending in 0002, which fail; the outcome is read by
 * the settle job after SANDBOX_PAYOUT_DELAY_S. SEPA transfers wait for staff to mark them done or
 * failed in the back office (as a real bank transfer would).
 */
export function createSandboxPayoutProvider(): PayoutProvider {
  return {
    name: 'sandbox',
    async startCardPayout({ card }) {
      const fails = card.number.endsWith(SANDBOX_FAILING_CARD_SUFFIX);
      return {
        providerRef: `sbx_po_${fails ? 'fail' : 'ok'}_${randomBytes(8).toString('hex')}`,
        brand: cardBrand(card.number),
        last4: card.number.slice(-4),
      };
    },
    async startSepaPayout() {
      return { providerRef: `sbx_sepa_${randomBytes(8).toString('hex')}` };
    },
    async payoutOutcome(providerRef) {
      if (providerRef.startsWith('sbx_po_ok_')) return { state: 'paid' };
      if (providerRef.startsWith('sbx_po_fail_')) return { state: 'failed', reason: SANDBOX_CARD_FAILURE };
      return { state: 'pending' };
    },
  };
}
