import { msg } from '@atelier/shared';
import Stripe from 'stripe';
import type { Config } from '../../../config';
import { AppError } from '../../../lib/app-error';
import type { DestinationInput, PayoutLookup, PayoutOrder, PayoutOutcome, PayoutProvider, RegisteredDestination } from '../payout-types';

/** A Stripe error that asking again will not change (a refused card, a bad request); anything else is retried by the job. */
function isFinal(err: unknown): err is Stripe.errors.StripeError {
  if (!(err instanceof Stripe.errors.StripeError)) return false;
  // The platform's Stripe balance is short for now: the job tries again later instead of failing the creator.
  if (err.code === 'balance_insufficient') return false;
  return err.type === 'StripeCardError' || err.type === 'StripeInvalidRequestError';
}

/**
 * Stripe Connect transfers (PAYOUT_PROVIDER=stripe).
 *
 * Before the transaction the card (or IBAN) becomes a Stripe token: the number is sent to Stripe here
 * and the payout row keeps only the tok_… with brand and last four. After the commit the job makes the
 * creator's connected account on first use (a Custom account in STRIPE_CONNECT_COUNTRY, reused from
 * the creator's last Stripe payout afterwards), attaches the token as the account's payout destination,
 * and transfers the amount from the platform's balance; Stripe pays the account out to that card or
 * bank account on its schedule. Every call carries an idempotency key made of the payout's id, so a
 * job that runs again after a crash repeats no transfer.
 */
export function createStripePayoutProvider(config: Config, client?: Stripe): PayoutProvider {
  const keys = config.payouts.stripe;
  if (!keys) throw new Error('Stripe Connect is not configured.');
  const stripe = client ?? new Stripe(keys.secretKey);

  return {
    name: 'stripe',
    sendDelayMs: 0,
    handles: () => 'provider',

    async registerDestination(input: DestinationInput): Promise<RegisteredDestination> {
      try {
        if (input.method === 'card') {
          const { card } = input;
          const token = await stripe.tokens.create({
            card: { number: card.number, exp_month: String(card.expMonth), exp_year: String(card.expYear), name: card.holder, currency: 'eur' },
          });
          return { token: token.id, brand: (token.card?.brand ?? 'card').toLowerCase(), last4: token.card?.last4 ?? card.number.slice(-4) };
        }
        const token = await stripe.tokens.create({
          bank_account: {
            country: input.iban.slice(0, 2),
            currency: 'eur',
            account_holder_name: input.name,
            account_holder_type: 'individual',
            account_number: input.iban,
          },
        });
        return { token: token.id, last4: token.bank_account?.last4 ?? input.iban.slice(-4) };
      } catch (err) {
        if (isFinal(err)) {
          const field = input.method === 'card' ? 'card_number' : 'account_number';
          const message = err.message || 'The payout provider refused these details.';
          throw new AppError('VALIDATION', message, { [field]: [message] });
        }
        throw new AppError('UNAVAILABLE', msg('payments.gateway_unavailable'));
      }
    },

    async sendPayout(order: PayoutOrder): Promise<PayoutOutcome> {
      const key = order.idempotencyKey;
      let account = order.account;
      try {
        if (!account) {
          const c = order.contact;
          const created = await stripe.accounts.create(
            {
              type: 'custom',
              country: keys.connectCountry,
              email: c.email,
              business_type: 'individual',
              individual: {
                first_name: c.first_name,
                last_name: c.last_name,
                email: c.email,
                phone: c.phone,
                address: { line1: c.address, city: c.city, postal_code: c.post_code },
              },
              capabilities: { transfers: { requested: true } },
              metadata: { atelier_user_id: String(order.userId) },
            },
            { idempotencyKey: `${key}-account` },
          );
          account = created.id;
        }
        await stripe.accounts.createExternalAccount(
          account,
          { external_account: order.token, default_for_currency: true },
          { idempotencyKey: `${key}-destination` },
        );
        const transfer = await stripe.transfers.create(
          {
            amount: order.amountMinor,
            currency: order.currency.toLowerCase(),
            destination: account,
            transfer_group: key,
            metadata: { payout_id: String(order.payoutId) },
          },
          { idempotencyKey: key },
        );
        return { state: 'paid', providerRef: transfer.id, account };
      } catch (err) {
        if (isFinal(err)) return { state: 'failed', reason: `Stripe refused the payout: ${err.message}`, ...(account ? { account } : {}) };
        throw err;
      }
    },

    /**
     * The transfer `sendPayout` made carries the payout's key as its transfer group: one that exists and
     * was not reversed in full means Stripe paid. None means it made no transfer (and, its idempotency
     * keys aside, will make none unless the job sends again). Stripe unreachable: unknown.
     */
    async lookup(payoutId: number): Promise<PayoutLookup> {
      try {
        const found = await stripe.transfers.list({ transfer_group: `payout-${payoutId}`, limit: 10 });
        const live = found.data.find((t) => !t.reversed && (t.amount_reversed ?? 0) < t.amount);
        if (live) return { state: 'paid', providerRef: live.id };
        return { state: 'not_paid' };
      } catch {
        return { state: 'unknown' };
      }
    },
  };
}
