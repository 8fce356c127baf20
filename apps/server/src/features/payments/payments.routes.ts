import {
  depositAmountInput,
  depositCheckoutInput,
  depositCheckoutResult,
  depositHistoryItem,
  depositStatusQuery,
  depositStatusResult,
  okEnvelope,
  okMessage,
  paymentMethod,
} from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deposits } from '../../db/schema';
import { notFound, validationError } from '../../lib/app-error';
import { requireUser, requireVerifiedUser } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { idempotencyKeyOf, runIdempotent } from '../../lib/idempotency';
import { applyPaymentEvent, checkDepositAmount, createDeposit, depositHistory, depositStatusOf } from './deposits';
import type { PaymentProvider } from './provider';
import { sandboxRoutes } from './sandbox/sandbox.routes';
import { createSandboxProvider } from './sandbox/sandbox-provider';
import { createStripeProvider } from './stripe/stripe-provider';

/** Deposits (Add Funds) and the payment provider chosen by configuration (PAYMENT_PROVIDER). */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const provider: PaymentProvider = app.config.payments.provider === 'stripe' ? createStripeProvider(app.config) : createSandboxProvider(app.config);
  const tags = ['deposits'];

  app.post('/deposit/validate-amount', { schema: { tags, body: depositAmountInput, response: { 200: okMessage } } }, async (request) => {
    requireUser(request);
    await checkDepositAmount(app.db, request.body.amount, request.body.currency);
    return { status: 'OK' as const, message: 'The amount is valid.' };
  });

  app.post('/deposit/validate', { schema: { tags, body: depositAmountInput, response: { 200: okEnvelope(z.array(paymentMethod)) } } }, async (request) => {
    requireUser(request);
    await checkDepositAmount(app.db, request.body.amount, request.body.currency);
    return ok(provider.methods());
  });

  app.post('/deposit/checkout', { schema: { tags, body: depositCheckoutInput, response: { 200: okEnvelope(depositCheckoutResult) } } }, async (request) => {
    const user = await requireVerifiedUser(request);
    const checked = await checkDepositAmount(app.db, request.body.amount, request.body.currency);
    const method = provider.methods().find((m) => m.id === request.body.payment_method);
    if (!method) throw validationError({ payment_method: 'Please choose a payment method.' });
    // One transaction: a failed start leaves no deposit behind; an Idempotency-Key replays the first answer.
    const key = idempotencyKeyOf(request);
    return ok(
      await runIdempotent(app.db, { userId: user.id, key, scope: 'deposit/checkout', body: request.body }, async (tx) => {
        const deposit = await createDeposit(tx, { userId: user.id, checked, provider: provider.name, paymentMethod: method.id });
        let start: Awaited<ReturnType<PaymentProvider['startCheckout']>>;
        try {
          start = await provider.startCheckout(
            {
              id: deposit.id,
              currencyAmountMinor: checked.currencyAmountMinor,
              currency: checked.currency.code,
              wholeOnly: checked.currency.wholeOnly,
              email: user.email,
            },
            method,
          );
        } catch (err) {
          request.log.error({ err: { message: (err as Error).message }, depositId: deposit.id }, 'payment provider refused the checkout');
          throw validationError({ payment_method: 'Checkout failed' }, 'Checkout failed');
        }
        await tx
          .update(deposits)
          .set({ providerRef: start.providerRef ?? null, checkoutNonce: start.checkoutNonce ?? null })
          .where(eq(deposits.id, deposit.id));
        return start.widget
          ? { order_id: deposit.id, status: 'processing' as const, widget_data: start.widget }
          : { order_id: deposit.id, status: 'processing' as const, redirect_url: start.redirectUrl ?? '' };
      }),
    );
  });

  app.get('/deposit/status', { schema: { tags, querystring: depositStatusQuery, response: { 200: okEnvelope(depositStatusResult) } } }, async (request) => {
    const userId = requireUser(request);
    return ok(await depositStatusOf(app.db, userId, request.query.order_id));
  });

  app.get('/deposit/history', { schema: { tags, response: { 200: okEnvelope(z.array(depositHistoryItem)) } } }, async (request) => {
    const userId = requireUser(request);
    return ok(await depositHistory(app.db, userId));
  });

  /**
   * Provider webhooks, verified on the raw body. No session, no CSRF token: the signature is the
   * proof. A replayed event is answered 200 and applied once; a bad signature is a 400.
   */
  await app.register(async (hooks) => {
    hooks.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
    hooks.post(
      '/payments/webhook/:provider',
      { config: { csrf: false }, schema: { hide: true, params: z.object({ provider: z.string().max(20) }) } },
      async (request, reply) => {
        if ((request.params as { provider: string }).provider !== provider.name) throw notFound();
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const event = await provider.parseWebhook(raw, request.headers);
        const result = await applyPaymentEvent(app, provider.name, event);
        return reply.code(200).send({ status: 'OK', received: true, result });
      },
    );
  });

  if (provider.name === 'sandbox') await app.register(sandboxRoutes);
};
