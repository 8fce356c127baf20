import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config';
import type { PayoutOrder, PayoutProvider } from '../payout-provider';
import { createStripePayoutProvider } from './stripe-payout-provider';

/**
 * Offline, as the payment adapter is tested: a real Stripe client whose HTTP client is a fake that
 * records each request (path, form body, idempotency key) and answers as Stripe's API would.
 */
type Sent = { method: string; path: string; query: URLSearchParams; body: URLSearchParams; idempotencyKey: string | null };
type Answer = { status: number; body: unknown } | 'network-down';

function fakeStripe(answer: (req: Sent) => Answer) {
  const sent: Sent[] = [];
  const fetchFn = (async (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const req: Sent = {
      method: init?.method ?? 'GET',
      path: new URL(String(url)).pathname,
      query: new URL(String(url)).searchParams,
      body: new URLSearchParams(typeof init?.body === 'string' ? init.body : ''),
      idempotencyKey: headers.get('idempotency-key'),
    };
    sent.push(req);
    const a = answer(req);
    if (a === 'network-down') throw new TypeError('fetch failed');
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json', 'request-id': `req_${sent.length}` } });
  }) as typeof fetch;
  const client = new Stripe('sk_test_offline', { httpClient: Stripe.createFetchHttpClient(fetchFn), maxNetworkRetries: 0 });
  return { client, sent };
}

/** Stripe's happy answers for the calls the adapter makes. */
function stripeApi(req: Sent): Answer {
  if (req.path === '/v1/tokens' && req.body.has('card[number]'))
    return { status: 200, body: { id: 'tok_card_1', object: 'token', card: { brand: 'Visa', last4: '4242' } } };
  if (req.path === '/v1/tokens') return { status: 200, body: { id: 'btok_1', object: 'token', bank_account: { last4: '3000' } } };
  if (req.path === '/v1/accounts') return { status: 200, body: { id: 'acct_new', object: 'account' } };
  if (/^\/v1\/accounts\/[^/]+\/external_accounts$/.test(req.path)) return { status: 200, body: { id: 'card_ext_1', object: 'card' } };
  if (req.path === '/v1/transfers') return { status: 200, body: { id: 'tr_1', object: 'transfer' } };
  return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (POST: ${req.path})` } } };
}

let config: ReturnType<typeof loadConfig>;
beforeAll(async () => {
  config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: await mkdtemp(path.join(tmpdir(), 'atelier-stripe-payouts-')),
    SESSION_SECRET: 's'.repeat(40),
    PAYOUT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_offline',
    STRIPE_CONNECT_COUNTRY: 'de',
  });
});

const order = (over: Partial<PayoutOrder> = {}): PayoutOrder => ({
  payoutId: 7,
  idempotencyKey: 'payout-7',
  amountMinor: 4000,
  currency: 'EUR',
  method: 'card',
  token: 'tok_card_1',
  account: null,
  holderName: 'Ines Duarte',
  contact: {
    first_name: 'Ines',
    last_name: 'Duarte',
    email: 'ines@example.com',
    phone: '+351912345678',
    address: 'Rua Augusta 1',
    city: 'Lisboa',
    post_code: '1100-048',
  },
  userId: 12,
  ...over,
});

describe('hole 2: Stripe Connect payouts (offline)', () => {
  it('tokenizes the card before the transaction: the number goes to /v1/tokens only, and comes back as a token, brand and last four', async () => {
    const { client, sent } = fakeStripe(stripeApi);
    const provider: PayoutProvider = createStripePayoutProvider(config, client);
    expect(provider.handles('card')).toBe('provider');
    expect(provider.handles('sepa')).toBe('provider');
    const card = await provider.registerDestination(
      { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2031, holder: 'Ines Duarte' } },
      { userId: 12, email: 'ines@example.com' },
    );
    expect(card).toEqual({ token: 'tok_card_1', brand: 'visa', last4: '4242' });
    const iban = await provider.registerDestination(
      { method: 'sepa', iban: 'DE89370400440532013000', name: 'Ines Duarte' },
      { userId: 12, email: 'ines@example.com' },
    );
    expect(iban).toEqual({ token: 'btok_1', last4: '3000' });
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/tokens', 'POST /v1/tokens']);
    expect(sent[0]!.body.get('card[number]')).toBe('4242424242424242');
    expect(sent[0]!.body.get('card[currency]')).toBe('eur');
    expect(sent[1]!.body.get('bank_account[account_number]')).toBe('DE89370400440532013000');
    expect(sent[1]!.body.get('bank_account[country]')).toBe('DE');
  });

  it("a first payout makes the creator's connected account, attaches the token and transfers, each keyed by the payout id", async () => {
    const { client, sent } = fakeStripe(stripeApi);
    const provider = createStripePayoutProvider(config, client);
    expect(await provider.sendPayout(order())).toEqual({ state: 'paid', providerRef: 'tr_1', account: 'acct_new' });
    expect(sent.map((r) => [r.path, r.idempotencyKey])).toEqual([
      ['/v1/accounts', 'payout-7-account'],
      ['/v1/accounts/acct_new/external_accounts', 'payout-7-destination'],
      ['/v1/transfers', 'payout-7'],
    ]);
    const [account, destination, transfer] = sent;
    expect(Object.fromEntries(account!.body)).toMatchObject({
      type: 'custom',
      country: 'DE',
      business_type: 'individual',
      'capabilities[transfers][requested]': 'true',
      'individual[first_name]': 'Ines',
      'individual[address][postal_code]': '1100-048',
      'metadata[atelier_user_id]': '12',
    });
    expect(Object.fromEntries(destination!.body)).toEqual({ external_account: 'tok_card_1', default_for_currency: 'true' });
    expect(Object.fromEntries(transfer!.body)).toEqual({
      amount: '4000',
      currency: 'eur',
      destination: 'acct_new',
      transfer_group: 'payout-7',
      'metadata[payout_id]': '7',
    });
  });

  it("the creator's next payout reuses their connected account", async () => {
    const { client, sent } = fakeStripe(stripeApi);
    const provider = createStripePayoutProvider(config, client);
    const outcome = await provider.sendPayout(order({ payoutId: 8, idempotencyKey: 'payout-8', account: 'acct_known' }));
    expect(outcome).toEqual({ state: 'paid', providerRef: 'tr_1', account: 'acct_known' });
    expect(sent.map((r) => r.path)).toEqual(['/v1/accounts/acct_known/external_accounts', '/v1/transfers']);
  });

  it('a refusal fails the payout with the reason (the account kept); an outage throws so the job asks again with the same key', async () => {
    const refused = fakeStripe((req) =>
      req.path === '/v1/transfers'
        ? {
            status: 400,
            body: { error: { type: 'invalid_request_error', code: 'account_invalid', message: 'The destination account cannot receive transfers.' } },
          }
        : stripeApi(req),
    );
    expect(await createStripePayoutProvider(config, refused.client).sendPayout(order())).toEqual({
      state: 'failed',
      reason: 'Stripe refused the payout: The destination account cannot receive transfers.',
      account: 'acct_new',
    });

    const down = fakeStripe((req) => (req.path === '/v1/transfers' ? 'network-down' : stripeApi(req)));
    await expect(createStripePayoutProvider(config, down.client).sendPayout(order())).rejects.toThrow();
    const busy = fakeStripe((req) =>
      req.path === '/v1/transfers' ? { status: 500, body: { error: { type: 'api_error', message: 'Try again.' } } } : stripeApi(req),
    );
    await expect(createStripePayoutProvider(config, busy.client).sendPayout(order())).rejects.toThrow();
    // The platform's Stripe balance is short: not the creator's fault, so the job tries again later.
    const short = fakeStripe((req) =>
      req.path === '/v1/transfers'
        ? { status: 400, body: { error: { type: 'invalid_request_error', code: 'balance_insufficient', message: 'Insufficient funds.' } } }
        : stripeApi(req),
    );
    await expect(createStripePayoutProvider(config, short.client).sendPayout(order())).rejects.toThrow('Insufficient funds.');
  });

  it('issue 30: looks a payout up by its transfer group: a live transfer is paid, none is not paid, a reversed one is not paid, an outage unknown', async () => {
    const transfers = (data: unknown[]) =>
      fakeStripe((req) =>
        req.method === 'GET' && req.path === '/v1/transfers'
          ? { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/transfers' } }
          : stripeApi(req),
      );
    const found = transfers([{ id: 'tr_9', object: 'transfer', amount: 4000, amount_reversed: 0, reversed: false, transfer_group: 'payout-7' }]);
    expect(await createStripePayoutProvider(config, found.client).lookup(7)).toEqual({ state: 'paid', providerRef: 'tr_9' });
    expect(found.sent[0]).toMatchObject({ method: 'GET', path: '/v1/transfers' });
    expect(found.sent[0]!.query.get('transfer_group')).toBe('payout-7');

    expect(await createStripePayoutProvider(config, transfers([]).client).lookup(7)).toEqual({ state: 'not_paid' });
    const reversed = transfers([{ id: 'tr_8', object: 'transfer', amount: 4000, amount_reversed: 4000, reversed: true, transfer_group: 'payout-7' }]);
    expect(await createStripePayoutProvider(config, reversed.client).lookup(7)).toEqual({ state: 'not_paid' });
    const down = fakeStripe(() => 'network-down');
    expect(await createStripePayoutProvider(config, down.client).lookup(7)).toEqual({ state: 'unknown' });
  });

  it('a card Stripe refuses while tokenizing is a 422 on the card number; Stripe out of reach is a 503', async () => {
    const declined = fakeStripe(() => ({
      status: 402,
      body: { error: { type: 'card_error', code: 'invalid_number', message: 'Your card number is incorrect.' } },
    }));
    const input = { method: 'card' as const, card: { number: '4000000000000002', expMonth: 1, expYear: 2031, holder: 'I D' } };
    await expect(createStripePayoutProvider(config, declined.client).registerDestination(input, { userId: 1, email: 'a@example.com' })).rejects.toMatchObject({
      statusCode: 422,
      fieldErrors: { card_number: ['Your card number is incorrect.'] },
    });
    const down = fakeStripe(() => 'network-down');
    await expect(createStripePayoutProvider(config, down.client).registerDestination(input, { userId: 1, email: 'a@example.com' })).rejects.toMatchObject({
      statusCode: 503,
    });
  });
});
