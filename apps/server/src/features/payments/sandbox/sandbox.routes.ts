import { formatPrice, minorToAmount } from '@atelier/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currencies, deposits } from '../../../db/schema';
import {
  type CardFormValues,
  type CardPageMode,
  cardFormPage,
  expiredLinkPage,
  frameDoneScript,
  paymentDonePage,
  threeDsPage,
  widgetScript,
} from './card-page';
import { newNonce, readFormToken, SANDBOX_PAY_PATH, SANDBOX_SIGNATURE_HEADER, type SandboxEvent, signFormToken, signSandboxEvent } from './sandbox-provider';

/** Stripe's test cards, as the sandbox honours them. */
const TEST_CARDS: Record<string, 'success' | 'declined' | '3ds' | 'dispute'> = {
  '4242424242424242': 'success',
  // Pays, then the card holder disputes the payment (a chargeback): as Stripe's 4000 0000 0000 0259.
  '4000000000000259': 'dispute',
  '4000000000000002': 'declined',
  '4000000000003220': '3ds',
  // Stripe's cards of a country (4000 00 + the ISO numeric code), which pay: the BIN says the card's country.
  '4000002760000016': 'success',
  '4000002500000003': 'success',
  '4000006200000007': 'success',
  '4000008400000001': 'success',
};

/**
 * The sandbox's BIN table: the issuing country of a card from its first digits (longest prefix wins),
 * as a provider reports it. Stripe's test cards are US cards unless their country's code is in them.
 */
const BIN_COUNTRIES: [prefix: string, country: string][] = [
  ['424242', 'US'],
  ['4000000', 'US'],
  ['400000276', 'DE'],
  ['400000250', 'FR'],
  ['400000620', 'PT'],
  ['400000380', 'IT'],
  ['400000724', 'ES'],
  ['400000528', 'NL'],
  ['400000056', 'BE'],
  ['400000040', 'AT'],
  ['400000840', 'US'],
  ['400000826', 'GB'],
];
export function cardCountryOf(number: string): string | undefined {
  let best: [string, string] | undefined;
  for (const row of BIN_COUNTRIES) if (number.startsWith(row[0]) && (!best || row[0].length > best[0].length)) best = row;
  return best?.[1];
}
export const DECLINED_MESSAGE = 'Your card was declined.';
export const THREE_DS_FAILED_MESSAGE = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

/** The script an in-place payment's last page runs: it tells the dialog around the frame. */
const SANDBOX_FRAME_DONE_PATH = '/api/payments/sandbox/frame-done.js';

/** A nonce's prefix says which step of the hosted page it is for. */
const CARD_STEP = 'c';
const THREE_DS_STEP = 't';

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'card';
}

/** SPEC §5 card rules, with its messages. */
export function cardProblems(values: CardFormValues, now = new Date()): Record<string, string> {
  const errors: Record<string, string> = {};
  const number = (values.card_number ?? '').replace(/\s+/g, '');
  if (!/^\d{13,19}$/.test(number)) errors.card_number = 'Please enter a valid card number';
  const month = Number(values.exp_month);
  if (!/^\d{1,2}$/.test(values.exp_month ?? '') || month < 1 || month > 12) errors.exp_month = 'Please enter a valid expiry month (1-12)';
  const year = Number(values.exp_year);
  const thisYear = now.getUTCFullYear();
  if (!/^\d{4}$/.test(values.exp_year ?? '') || year < thisYear || year > thisYear + 20) errors.exp_year = 'Please enter a valid expiry year';
  if (!errors.exp_month && !errors.exp_year && year === thisYear && month < now.getUTCMonth() + 1)
    errors.exp_month = 'Card has expired. Please use a valid card';
  if (!/^\d{3,4}$/.test(values.cvc ?? '')) errors.cvc = 'Please enter a valid security code';
  return errors;
}

/**
 * The sandbox provider's "hosted" side, served by the app: the card page at the redirect_url, its
 * 3-D Secure step, and the widget script. Outcomes go out as signed webhooks through the same route
 * and crediting code a real provider uses. No CSRF token here (the page is the provider's, not
 * ours): the URL carries a signed, single-use token instead. Card numbers are never stored or logged.
 */
export const sandboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const html = (reply: FastifyReply, body: string, code = 200) =>
    reply.code(code).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(body);

  async function amountLabel(depositId: number) {
    const [row] = await app.db
      .select({ minor: deposits.currencyAmountMinor, code: deposits.currency, symbol: currencies.symbol, decimals: currencies.decimals })
      .from(deposits)
      .leftJoin(currencies, eq(currencies.code, deposits.currency))
      .where(eq(deposits.id, depositId));
    return row ? formatPrice(minorToAmount(Number(row.minor), row.decimals ?? 2), row.symbol ?? row.code, row.decimals ?? 2) : '';
  }

  /** The deposit behind a token whose nonce is still current, or null. */
  async function current(token: string) {
    const parsed = readFormToken(app.config, token);
    if (!parsed) return null;
    const [row] = await app.db
      .select()
      .from(deposits)
      .where(and(eq(deposits.id, parsed.depositId), eq(deposits.provider, 'sandbox'), eq(deposits.status, 'processing')))
      .limit(1);
    if (!row || row.checkoutNonce !== parsed.nonce) return null;
    return { deposit: row, nonce: parsed.nonce };
  }

  /** Consumes a token: succeeds once, for the step it was issued for. */
  async function consume(token: string) {
    const found = await current(token);
    if (!found) return null;
    const taken = await app.db
      .update(deposits)
      .set({ checkoutNonce: null, updatedAt: new Date() })
      .where(and(eq(deposits.id, found.deposit.id), eq(deposits.checkoutNonce, found.nonce), eq(deposits.status, 'processing')))
      .returning({ id: deposits.id });
    return taken.length ? found : null;
  }

  /** Issues the token for the next step. */
  async function issue(depositId: number, step: string) {
    const nonce = `${step}${newNonce()}`;
    await app.db.update(deposits).set({ checkoutNonce: nonce }).where(eq(deposits.id, depositId));
    return `${SANDBOX_PAY_PATH}/${signFormToken(app.config, depositId, nonce)}`;
  }

  const params = z.object({ token: z.string().max(200) });
  const query = z.object({ embed: z.string().optional() });

  /**
   * In a widget, a payment for something (a chat image: the deposit has a purpose) stays in its frame
   * to the end, so the dialog around it stays where it is; an Add Funds widget takes the whole tab to
   * the payment pages. A payment for something is never called a deposit.
   */
  const modeOf = (embed: boolean, deposit: { purpose: unknown } | null): CardPageMode => (!embed ? 'page' : deposit?.purpose ? 'in-place' : 'top');
  const titleOf = (deposit: { purpose: unknown }) => (deposit.purpose ? 'Card payment' : 'Add funds');

  app.get(`/payments/sandbox/pay/:token`, { schema: { hide: true, params, querystring: query } }, async (request, reply) => {
    const embed = request.query.embed === '1';
    const found = await current(request.params.token);
    if (!found) return html(reply, expiredLinkPage(embed ? 'in-place' : 'page'), 410);
    const mode = modeOf(embed, found.deposit);
    const action = `${SANDBOX_PAY_PATH}/${request.params.token}${embed ? '?embed=1' : ''}`;
    const amount = await amountLabel(found.deposit.id);
    const is3ds = found.nonce.startsWith(THREE_DS_STEP);
    // Issue 31: a page of its own offers Cancel back to the app; the deposit stays open until it expires, as with a provider.
    const cancelUrl = mode === 'page' ? `${app.config.linkBase}/fail-payment?error=${encodeURIComponent('Payment cancelled')}` : undefined;
    return html(reply, is3ds ? threeDsPage({ action, amount, mode }) : cardFormPage({ action, amount, mode, title: titleOf(found.deposit), cancelUrl }));
  });

  app.post(
    `/payments/sandbox/pay/:token`,
    { config: { csrf: false }, schema: { hide: true, params, querystring: query, body: z.record(z.string(), z.string()).optional() } },
    async (request, reply) => {
      const embed = request.query.embed === '1';
      const found = await consume(request.params.token);
      if (!found) return html(reply, expiredLinkPage(embed ? 'in-place' : 'page'), 410);
      const { deposit, nonce } = found;
      const body = request.body ?? {};
      const mode = modeOf(embed, deposit);
      const withEmbed = (path: string) => (embed ? `${path}?embed=1` : path);
      const amount = await amountLabel(deposit.id);
      // The outcome: the processing page for the whole tab, or, in place, a line the dialog hears of.
      const finished = (succeeded: boolean, message?: string) =>
        mode === 'in-place'
          ? html(reply, paymentDonePage({ depositId: deposit.id, succeeded, message, scriptUrl: `${SANDBOX_FRAME_DONE_PATH}` }))
          : reply.redirect(`${app.config.linkBase}/processing-payment?order_id=${deposit.id}`, 303);

      if (nonce.startsWith(THREE_DS_STEP)) {
        const complete = body.three_ds === 'complete';
        const card = { brand: deposit.cardBrand ?? 'visa', last4: deposit.cardLast4 ?? '3220', country: deposit.cardCountry ?? undefined };
        await deliver(
          app,
          deposit.id,
          complete ? { type: 'payment.succeeded', card, ...paidOf(deposit) } : { type: 'payment.failed', card, error_message: THREE_DS_FAILED_MESSAGE },
        );
        return finished(complete, complete ? undefined : THREE_DS_FAILED_MESSAGE);
      }

      const values: CardFormValues = { card_number: body.card_number, exp_month: body.exp_month, exp_year: body.exp_year, cvc: body.cvc };
      const errors = cardProblems(values);
      const number = (values.card_number ?? '').replace(/\s+/g, '');
      const kind = TEST_CARDS[number];
      if (!Object.keys(errors).length && !kind) errors.card_number = 'Use a test card, such as 4242 4242 4242 4242.';
      if (Object.keys(errors).length) {
        const action = withEmbed(await issue(deposit.id, CARD_STEP));
        return html(
          reply,
          cardFormPage({
            action,
            amount,
            errors,
            values,
            mode,
            title: titleOf(deposit),
            cancelUrl: mode === 'page' ? `${app.config.linkBase}/fail-payment?error=${encodeURIComponent('Payment cancelled')}` : undefined,
          }),
          422,
        );
      }
      const card = { brand: brandOf(number), last4: number.slice(-4), country: cardCountryOf(number) };
      if (kind === '3ds') {
        await app.db
          .update(deposits)
          .set({ cardBrand: card.brand, cardLast4: card.last4, cardCountry: card.country ?? null })
          .where(eq(deposits.id, deposit.id));
        const action = withEmbed(await issue(deposit.id, THREE_DS_STEP));
        return html(reply, threeDsPage({ action, amount, mode }));
      }
      const paid = kind === 'success' || kind === 'dispute';
      await deliver(
        app,
        deposit.id,
        paid ? { type: 'payment.succeeded', card, ...paidOf(deposit) } : { type: 'payment.failed', card, error_message: DECLINED_MESSAGE },
      );
      // After the payment, the dispute: its id is the sandbox's own for this deposit (a test closes it
      // with a signed `dispute.closed` event naming it, as the provider would).
      if (kind === 'dispute')
        await deliver(app, deposit.id, { type: 'dispute.created', dispute_id: sandboxDisputeId(deposit.id), dispute_reason: 'fraudulent' });
      return finished(paid, paid ? undefined : DECLINED_MESSAGE);
    },
  );

  app.get(SANDBOX_FRAME_DONE_PATH.replace(/^\/api/, ''), { schema: { hide: true } }, async (_request, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(frameDoneScript()),
  );

  app.get('/payments/sandbox/widget.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(widgetScript(`${app.config.linkBase}${SANDBOX_PAY_PATH}`)),
  );
};

/** The sandbox's dispute id for a deposit paid with the disputing test card. */
export const sandboxDisputeId = (depositId: number) => `dp_sandbox_${depositId}`;

/** Sends the outcome as the provider would: a signed webhook to our own webhook route. */
/** What the sandbox's card was charged: the deposit's amount and currency, as a provider's event states them. */
const paidOf = (deposit: { currencyAmountMinor: number; currency: string }) => ({
  amount_minor: Number(deposit.currencyAmountMinor),
  currency: deposit.currency,
});

async function deliver(
  app: FastifyInstance,
  depositId: number,
  outcome: { type: SandboxEvent['type'] } & Omit<SandboxEvent['data'], 'deposit_id'>,
): Promise<void> {
  const { type, ...data } = outcome;
  const event: SandboxEvent = { id: `evt_${crypto.randomUUID().replaceAll('-', '')}`, type, data: { deposit_id: depositId, ...data } };
  const { raw, signature } = signSandboxEvent(app.config, event);
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/webhook/sandbox',
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
    payload: raw,
  });
  if (res.statusCode !== 200) app.log.error({ statusCode: res.statusCode, depositId }, 'sandbox webhook was not accepted');
}

export { SANDBOX_PAY_PATH };
