import type { IncomingHttpHeaders } from 'node:http';
import type { PaymentMethod } from '@atelier/shared';
import Stripe from 'stripe';
import type { Config } from '../../../config';
import type { CheckoutDeposit, CheckoutStart, PaymentEvent, PaymentProvider } from '../provider';
import { WEBHOOK_TOLERANCE_SECONDS } from '../provider';
import { invalidSignature } from '../webhook-signature';

const methods: PaymentMethod[] = [
  { id: 'stripe-checkout', title: 'Card (Stripe Checkout)', type: 'redirect' },
  { id: 'stripe-element', title: 'Card', type: 'widget' },
];

/** Stripe counts a currency in its own minor units (JPY in whole yen), as deposits do. */
const stripeAmount = (d: CheckoutDeposit) => d.currencyAmountMinor;

const idOf = (ref: string | { id: string } | null | undefined) => (typeof ref === 'string' ? ref : (ref?.id ?? undefined));

function depositIdOf(metadata: Stripe.Metadata | null | undefined): number | null {
  const id = Number(metadata?.deposit_id);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** What Stripe says was paid, in the currency's minor units (as `stripeAmount` sent it); nothing when it does not say. */
function paidOf(amount: number | null | undefined, currency: string | null | undefined): { paid?: { amountMinor: number; currency: string } } {
  return typeof amount === 'number' && typeof currency === 'string' && currency ? { paid: { amountMinor: amount, currency: currency.toUpperCase() } } : {};
}

/**
 * Stripe: Checkout Sessions for the redirect method, a PaymentIntent for the Payment Element widget.
 * Webhooks are verified with stripe.webhooks.constructEvent on the raw body (300 s tolerance).
 */
export function createStripeProvider(config: Config, client?: Stripe): PaymentProvider {
  const keys = config.payments.stripe;
  if (!keys) throw new Error('Stripe keys are not configured.');
  const stripe = client ?? new Stripe(keys.secretKey);
  return {
    name: 'stripe',
    methods: () => methods,
    async startCheckout(deposit: CheckoutDeposit, method: PaymentMethod): Promise<CheckoutStart> {
      const metadata = { deposit_id: String(deposit.id) };
      if (method.type === 'widget') {
        const intent = await stripe.paymentIntents.create(
          {
            amount: stripeAmount(deposit),
            currency: deposit.currency.toLowerCase(),
            metadata,
            automatic_payment_methods: { enabled: true },
            receipt_email: deposit.email,
          },
          { idempotencyKey: `deposit-${deposit.id}` },
        );
        return {
          providerRef: intent.id,
          widget: { checkout_url: 'https://js.stripe.com/v3/', checkout: intent.client_secret ?? '', public_key: keys.publishableKey, payment_type: 'widget' },
        };
      }
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: String(deposit.id),
          customer_email: deposit.email,
          line_items: [
            {
              quantity: 1,
              price_data: { currency: deposit.currency.toLowerCase(), unit_amount: stripeAmount(deposit), product_data: { name: 'Atelier balance top-up' } },
            },
          ],
          metadata,
          payment_intent_data: { metadata },
          success_url: `${config.publicUrl}/processing-payment?order_id=${deposit.id}`,
          cancel_url: `${config.publicUrl}/fail-payment?error=${encodeURIComponent('Payment cancelled')}`,
          expires_at: Math.floor(Date.now() / 1000) + 30 * 60,
        },
        { idempotencyKey: `deposit-${deposit.id}` },
      );
      return { providerRef: session.id, redirectUrl: session.url ?? undefined };
    },
    async parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): Promise<PaymentEvent> {
      const signature = headers['stripe-signature'];
      if (typeof signature !== 'string') throw invalidSignature();
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, keys.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch {
        throw invalidSignature();
      }
      const base = { id: event.id, type: event.type };
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          const session = event.data.object;
          const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
          return {
            ...base,
            outcome: paid ? 'succeeded' : 'ignored',
            depositId: depositIdOf(session.metadata),
            paymentRef: idOf(session.payment_intent),
            ...paidOf(session.amount_total, session.currency),
          };
        }
        case 'checkout.session.async_payment_failed':
        case 'checkout.session.expired':
          return { ...base, outcome: 'failed', depositId: depositIdOf(event.data.object.metadata), errorMessage: 'Payment failed' };
        case 'payment_intent.succeeded':
          return {
            ...base,
            outcome: 'succeeded',
            depositId: depositIdOf(event.data.object.metadata),
            paymentRef: event.data.object.id,
            ...paidOf(event.data.object.amount_received, event.data.object.currency),
            // The card's country (VAT evidence), when the event carries its charge expanded.
            ...cardOf(event.data.object.latest_charge),
          };
        // The charge carries the card (Stripe's PaymentIntent events name it by id only): its issuing
        // country is VAT evidence (issue 33), recorded on the deposit whenever this event comes.
        case 'charge.succeeded': {
          const charge = event.data.object;
          const card = cardOf(charge);
          if (!card.card) return { ...base, outcome: 'ignored', depositId: null };
          return { ...base, outcome: 'card_seen', depositId: depositIdOf(charge.metadata), paymentRef: idOf(charge.payment_intent), ...card };
        }
        case 'payment_intent.payment_failed': {
          const intent = event.data.object;
          return { ...base, outcome: 'failed', depositId: depositIdOf(intent.metadata), errorMessage: intent.last_payment_error?.message ?? 'Payment failed' };
        }
        // Chargebacks (issue 19): a dispute names its payment by PaymentIntent (its charge, when
        // expanded, carries the deposit id the PaymentIntent's metadata gave it).
        case 'charge.dispute.created':
        case 'charge.dispute.closed': {
          const dispute = event.data.object;
          const charge = typeof dispute.charge === 'object' ? dispute.charge : null;
          const found = {
            depositId: depositIdOf(charge?.metadata ?? dispute.metadata),
            paymentRef: idOf(dispute.payment_intent),
            dispute: { id: dispute.id, reason: dispute.reason, amountMinor: dispute.amount, currency: dispute.currency?.toUpperCase() },
          };
          if (event.type === 'charge.dispute.created') return { ...base, outcome: 'dispute_opened', ...found };
          // `warning_closed`: an inquiry that never became a chargeback, so the money stays ours.
          if (dispute.status === 'won' || dispute.status === 'warning_closed') return { ...base, outcome: 'dispute_won', ...found };
          if (dispute.status === 'lost') return { ...base, outcome: 'dispute_lost', ...found };
          return { ...base, outcome: 'ignored', depositId: null };
        }
        case 'charge.refunded': {
          const charge = event.data.object;
          // Only a full refund takes the deposit back; a partial one is left to staff.
          if (!charge.refunded) return { ...base, outcome: 'ignored', depositId: null };
          return { ...base, outcome: 'refunded', depositId: depositIdOf(charge.metadata), paymentRef: idOf(charge.payment_intent) };
        }
        default:
          return { ...base, outcome: 'ignored', depositId: null };
      }
    },
  };
}

/** The card of a charge, when the event carries it as an object (Stripe gives brand, last four and issuing country). */
function cardOf(charge: unknown): { card?: { brand: string; last4: string; country?: string } } {
  const card = (charge as { payment_method_details?: { card?: { brand?: string; last4?: string; country?: string | null } } } | null)?.payment_method_details
    ?.card;
  if (!card?.brand || !card.last4) return {};
  return { card: { brand: card.brand, last4: card.last4, ...(card.country && /^[A-Z]{2}$/.test(card.country) ? { country: card.country } : {}) } };
}
