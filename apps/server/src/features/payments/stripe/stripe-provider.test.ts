import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config';
import type { PaymentProvider } from '../provider';
import { createStripeProvider } from './stripe-provider';

/** Offline: the webhook side of the Stripe adapter, with headers signed as Stripe signs them. */
const secret = 'whsec_test_secret_for_atelier';
let provider: PaymentProvider;
const stripe = new Stripe('sk_test_offline');

beforeAll(async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: await mkdtemp(path.join(tmpdir(), 'atelier-stripe-')),
    SESSION_SECRET: 's'.repeat(40),
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_offline',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_offline',
    STRIPE_WEBHOOK_SECRET: secret,
  });
  provider = createStripeProvider(config, stripe);
});

function signed(event: object, timestamp?: number) {
  const payload = JSON.stringify(event);
  return { raw: Buffer.from(payload), headers: { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) } };
}

describe('Stripe webhooks', () => {
  it('a paid Checkout Session credits its deposit; an expired one fails it', async () => {
    const paid = signed({
      id: 'evt_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { object: 'checkout.session', payment_status: 'paid', metadata: { deposit_id: '12' } } },
    });
    expect(await provider.parseWebhook(paid.raw, paid.headers)).toEqual({
      id: 'evt_1',
      type: 'checkout.session.completed',
      outcome: 'succeeded',
      depositId: 12,
    });
    const expired = signed({
      id: 'evt_2',
      object: 'event',
      type: 'checkout.session.expired',
      data: { object: { object: 'checkout.session', metadata: { deposit_id: '13' } } },
    });
    expect(await provider.parseWebhook(expired.raw, expired.headers)).toMatchObject({ outcome: 'failed', depositId: 13 });
    const other = signed({ id: 'evt_3', object: 'event', type: 'customer.created', data: { object: {} } });
    expect(await provider.parseWebhook(other.raw, other.headers)).toMatchObject({ outcome: 'ignored', depositId: null });
  });

  it('issue 30: a paid Checkout Session and a PaymentIntent say what was paid, in minor units and the ISO code', async () => {
    const session = signed({
      id: 'evt_amt_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { object: 'checkout.session', payment_status: 'paid', amount_total: 5000, currency: 'eur', metadata: { deposit_id: '21' } } },
    });
    expect(await provider.parseWebhook(session.raw, session.headers)).toMatchObject({
      outcome: 'succeeded',
      depositId: 21,
      paid: { amountMinor: 5000, currency: 'EUR' },
    });
    const intent = signed({
      id: 'evt_amt_2',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { object: 'payment_intent', id: 'pi_1', amount: 900, amount_received: 900, currency: 'jpy', metadata: { deposit_id: '22' } } },
    });
    expect(await provider.parseWebhook(intent.raw, intent.headers)).toMatchObject({ depositId: 22, paid: { amountMinor: 900, currency: 'JPY' } });
  });

  it('issue 33: a succeeded charge tells the card that paid, with its issuing country (VAT evidence); a charge without a card is ignored', async () => {
    const charge = signed({
      id: 'evt_card_1',
      object: 'event',
      type: 'charge.succeeded',
      data: {
        object: {
          object: 'charge',
          payment_intent: 'pi_77',
          metadata: { deposit_id: '77' },
          payment_method_details: { card: { brand: 'visa', last4: '0016', country: 'DE' } },
        },
      },
    });
    expect(await provider.parseWebhook(charge.raw, charge.headers)).toMatchObject({
      outcome: 'card_seen',
      depositId: 77,
      paymentRef: 'pi_77',
      card: { brand: 'visa', last4: '0016', country: 'DE' },
    });
    const noCard = signed({ id: 'evt_card_2', object: 'event', type: 'charge.succeeded', data: { object: { object: 'charge', payment_method_details: {} } } });
    expect(await provider.parseWebhook(noCard.raw, noCard.headers)).toMatchObject({ outcome: 'ignored', depositId: null });
  });

  it('a bad signature or a stale timestamp is refused with a 400', async () => {
    const event = { id: 'evt_4', object: 'event', type: 'payment_intent.succeeded', data: { object: { metadata: { deposit_id: '5' } } } };
    const good = signed(event);
    await expect(provider.parseWebhook(Buffer.from(`${good.raw.toString()} `), good.headers)).rejects.toMatchObject({ statusCode: 400 });
    await expect(provider.parseWebhook(good.raw, {})).rejects.toMatchObject({ statusCode: 400 });
    const stale = signed(event, Math.floor(Date.now() / 1000) - 301);
    await expect(provider.parseWebhook(stale.raw, stale.headers)).rejects.toMatchObject({ statusCode: 400, message: 'Invalid webhook signature.' });
  });

  it('disputes name their payment by PaymentIntent; closed as won, warning_closed or lost; a full refund only', async () => {
    const dispute = (type: string, status: string) =>
      signed({
        id: `evt_${type}_${status}`,
        object: 'event',
        type,
        data: {
          object: {
            object: 'dispute',
            id: 'du_1',
            payment_intent: 'pi_9',
            charge: 'ch_9',
            status,
            reason: 'fraudulent',
            amount: 1500,
            currency: 'eur',
            metadata: {},
          },
        },
      });
    const parse = (e: ReturnType<typeof signed>) => provider.parseWebhook(e.raw, e.headers);
    expect(await parse(dispute('charge.dispute.created', 'needs_response'))).toEqual({
      id: 'evt_charge.dispute.created_needs_response',
      type: 'charge.dispute.created',
      outcome: 'dispute_opened',
      depositId: null,
      paymentRef: 'pi_9',
      dispute: { id: 'du_1', reason: 'fraudulent', amountMinor: 1500, currency: 'EUR' },
    });
    expect(await parse(dispute('charge.dispute.closed', 'won'))).toMatchObject({ outcome: 'dispute_won', paymentRef: 'pi_9', dispute: { id: 'du_1' } });
    expect(await parse(dispute('charge.dispute.closed', 'warning_closed'))).toMatchObject({ outcome: 'dispute_won' });
    expect(await parse(dispute('charge.dispute.closed', 'lost'))).toMatchObject({ outcome: 'dispute_lost' });
    expect(await parse(dispute('charge.dispute.closed', 'under_review'))).toMatchObject({ outcome: 'ignored', depositId: null });
    const refund = (refunded: boolean) =>
      signed({
        id: `evt_refund_${refunded}`,
        object: 'event',
        type: 'charge.refunded',
        data: { object: { object: 'charge', refunded, payment_intent: 'pi_9', metadata: { deposit_id: '14' } } },
      });
    expect(await parse(refund(true))).toMatchObject({ outcome: 'refunded', depositId: 14, paymentRef: 'pi_9' });
    expect(await parse(refund(false))).toMatchObject({ outcome: 'ignored' });
    const paid = signed({
      id: 'evt_pi',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { object: 'payment_intent', id: 'pi_9', metadata: { deposit_id: '14' } } },
    });
    expect(await parse(paid)).toMatchObject({ outcome: 'succeeded', depositId: 14, paymentRef: 'pi_9' });
  });
});
