import type { IncomingHttpHeaders } from 'node:http';
import type { PaymentMethod, WidgetData } from '@atelier/shared';

/**
 * A card payment provider for deposits. Two implementations: the built-in sandbox (default, works
 * offline and in tests) and Stripe. Both report outcomes through a signed webhook that
 * `parseWebhook` verifies on the raw body; the crediting code (deposits.ts) is the same for both.
 */
export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  methods(): PaymentMethod[];
  /** Starts paying for a pending deposit: where to send the browser, or what the widget needs. */
  startCheckout(deposit: CheckoutDeposit, method: PaymentMethod): Promise<CheckoutStart>;
  /** Verifies a webhook (signature over the raw body, timestamp within 300 s); throws AppError 400 if not genuine. */
  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): Promise<PaymentEvent>;
}

export type CheckoutDeposit = {
  id: number;
  /** What the user pays, in their currency's own minor units (its decimals: whole yen for JPY, cents for EUR). */
  currencyAmountMinor: number;
  currency: string;
  email: string;
  /** The sandbox's nonce of a checkout already started for this deposit: asking again gives the same form. */
  checkoutNonce?: string | null;
};

export type CheckoutStart = {
  redirectUrl?: string;
  widget?: WidgetData;
  /** The provider's id for this payment (a Checkout Session), stored on the deposit. */
  providerRef?: string;
  /** The sandbox's single-use form nonce. */
  checkoutNonce?: string;
};

/**
 * A verified webhook, reduced to what the deposit needs. A dispute or a refund names its payment by
 * the deposit id when it carries one, else by the provider's payment id (`paymentRef`, a PaymentIntent).
 */
export type PaymentEvent = {
  id: string;
  type: string;
  /** `card_seen`: the provider told which card paid (its brand, last four and country), nothing else. */
  outcome: 'succeeded' | 'failed' | 'ignored' | 'dispute_opened' | 'dispute_won' | 'dispute_lost' | 'refunded' | 'card_seen';
  depositId: number | null;
  /** The provider's id of the payment itself (stored on success, so its later disputes and refunds find it). */
  paymentRef?: string;
  /**
   * The provider's dispute id (dispute events only), its reason when it opens, and the amount it
   * disputes in the payment currency's minor units (a dispute may be for part of the payment).
   */
  dispute?: { id: string; reason?: string; amountMinor?: number; currency?: string };
  errorMessage?: string;
  /** The card that paid; `country` is its issuing country (ISO alpha-2), evidence of the buyer's country for VAT (issue 33). */
  card?: { brand: string; last4: string; country?: string };
  /**
   * What the provider says was paid (a success): in the currency's minor units, as the deposit's
   * `currencyAmountMinor`, and the ISO code. It must match the deposit, or nothing is credited (issue 30).
   */
  paid?: { amountMinor: number; currency: string };
};

/** Seconds a webhook's timestamp may differ from our clock. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
