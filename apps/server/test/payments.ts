import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { expect } from 'vitest';
import { deposits } from '../src/db/schema';
import { SANDBOX_SIGNATURE_HEADER, type SandboxEvent, signSandboxEvent } from '../src/features/payments/sandbox/sandbox-provider';
import type { TestClient } from './test-app';

/**
 * The provider's side of a Stripe payment, offline: signed events to the webhook route, a paid
 * Checkout deposit, and disputes of it. One copy for every test that plays Stripe.
 */
const stripe = new Stripe('sk_test_offline');

/** What createTestApp needs to pay with Stripe offline, its events signed with `secret`. */
export const stripeTestEnv = (secret: string) => ({
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_offline',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_offline',
  STRIPE_WEBHOOK_SECRET: secret,
});

export type StripeEvent = { id: string; type: string; data: { object: Record<string, unknown> } };

/** Sends a signed event to the webhook route; answers what the app did with it ('applied', 'duplicate', 'ignored', 'refused'). */
export async function sendStripeEvent(app: FastifyInstance, secret: string, event: StripeEvent): Promise<string> {
  const payload = JSON.stringify({ object: 'event', ...event });
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/webhook/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret }) },
    payload,
  });
  expect(res.statusCode).toBe(200);
  return res.json().payload.result as string;
}

/** Sends a signed sandbox event to the webhook route; answers what the app did with it ('applied', 'duplicate', 'ignored', 'refused'). */
export async function sendSandboxEvent(app: FastifyInstance, event: SandboxEvent): Promise<string> {
  const { raw, signature } = signSandboxEvent(app.config, event);
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/webhook/sandbox',
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
    payload: raw,
  });
  expect(res.statusCode).toBe(200);
  return res.json().payload.result as string;
}

/**
 * A Checkout Session paid for a new deposit crediting `eurMinor` EUR cents, charged as `charged` minor
 * units of `currency`; answers the deposit id and its PaymentIntent.
 */
export async function paidStripeDeposit(
  app: FastifyInstance,
  secret: string,
  userId: number,
  eurMinor: number,
  opts: { currency?: string; charged?: number } = {},
): Promise<{ depositId: number; pi: string }> {
  const currency = opts.currency ?? 'EUR';
  const charged = opts.charged ?? eurMinor;
  const [row] = await app.db
    .insert(deposits)
    .values({
      userId,
      amountMinor: eurMinor,
      currency,
      currencyAmountMinor: charged,
      provider: 'stripe',
      paymentMethod: 'stripe-checkout',
      status: 'processing',
    })
    .returning({ id: deposits.id });
  const pi = `pi_test_${row!.id}`;
  await app.db
    .update(deposits)
    .set({ providerRef: `cs_test_${row!.id}` })
    .where(eq(deposits.id, row!.id));
  const paid = await sendStripeEvent(app, secret, {
    id: `evt_paid_${row!.id}`,
    type: 'checkout.session.completed',
    data: {
      object: {
        object: 'checkout.session',
        payment_status: 'paid',
        payment_intent: pi,
        amount_total: charged,
        currency: currency.toLowerCase(),
        metadata: { deposit_id: String(row!.id) },
      },
    },
  });
  expect(paid).toBe('applied');
  return { depositId: row!.id, pi };
}

/** A Stripe dispute object of the payment `pi`. */
export const stripeDispute = (id: string, pi: string, status: string, amount: number, currency = 'eur') => ({
  object: 'dispute',
  id,
  amount,
  currency,
  charge: `ch_${pi}`,
  payment_intent: pi,
  reason: 'fraudulent',
  status,
  metadata: {},
});

/** charge.dispute.created for `amount` of the payment `pi`. */
export const disputeOpened = (id: string, pi: string, amount: number, currency = 'eur'): StripeEvent => ({
  id: `evt_open_${id}`,
  type: 'charge.dispute.created',
  data: { object: stripeDispute(id, pi, 'needs_response', amount, currency) },
});

/** charge.dispute.closed, won or lost. */
export const disputeClosed = (id: string, pi: string, status: 'won' | 'lost', amount: number): StripeEvent => ({
  id: `evt_close_${id}_${status}`,
  type: 'charge.dispute.closed',
  data: { object: stripeDispute(id, pi, status, amount) },
});

/**
 * Adds funds the way a user does: the sandbox's card page with `card` (its BIN says the card's
 * country, 4242… is a US card), then its signed webhook. For an app on the sandbox provider.
 */
export async function depositByTestCard(app: FastifyInstance, client: TestClient, euros: number, card = '4242424242424242') {
  const res = await client.post('/api/deposit/checkout', { amount: euros, currency: 'EUR', payment_method: 'sandbox-card' });
  const path = new URL(res.json().payload.redirect_url).pathname;
  const paid = await app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ card_number: card, exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 1), cvc: '123' }).toString(),
  });
  expect(paid.statusCode).toBe(303);
}

/**
 * A paid card deposit of this country, as a record only: the evidence a card gives for VAT (issue 33);
 * the money itself comes from `fund`.
 */
export async function paidByCard(app: FastifyInstance, userId: number, country: string) {
  await app.db.insert(deposits).values({
    userId,
    amountMinor: 100,
    currency: 'EUR',
    currencyAmountMinor: 100,
    provider: 'sandbox',
    paymentMethod: 'sandbox-card',
    status: 'success',
    cardBrand: 'visa',
    cardLast4: '0016',
    cardCountry: country,
  });
}
