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
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { idempotencyKeyOf, runIdempotent } from '../../lib/idempotency';
import { enqueue } from '../../lib/jobs';
import { enforceRateLimit } from '../../lib/rate-limit';
import {
  applyPaymentEvent,
  checkDepositAmount,
  createDeposit,
  DEPOSIT_RECEIPT_JOB,
  depositHistory,
  depositStatusOf,
  EXPIRE_DEPOSITS_JOB,
  expireStaleDeposits,
  sendDepositReceipt,
} from './deposits';

/** Pending deposits are looked at this often; one left for 30 minutes fails. */
const EXPIRY_SWEEP_MS = 5 * 60_000;

import { PAYMENT_MESSAGES, PAYMENT_STARTS, paymentProviderFor, startCheckout } from './card-payments';
import type { PaymentProvider } from './provider';
import { sandboxRoutes } from './sandbox/sandbox.routes';

/** Deposits (Add Funds) and the payment provider chosen by configuration (PAYMENT_PROVIDER). */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.jobs.register<{ depositId: number }>(DEPOSIT_RECEIPT_JOB, ({ depositId }) => sendDepositReceipt(app, depositId));
  // A sweep that schedules the next one: keyed by its time slot, so however many app servers start or
  // sweep, each slot has one job.
  const scheduleSweep = (db: typeof app.db, at: number) =>
    enqueue(db, EXPIRE_DEPOSITS_JOB, {}, { runAt: new Date(at), singletonKey: `slot-${Math.floor(at / EXPIRY_SWEEP_MS)}` });
  app.jobs.register(EXPIRE_DEPOSITS_JOB, async (_payload, ctx) => {
    const expired = await expireStaleDeposits(ctx.db);
    if (expired.length) ctx.log.info({ count: expired.length }, 'pending deposits expired');
    for (const _ of expired) app.metrics.money('deposits', 'expired');
    await scheduleSweep(ctx.db, Date.now() + EXPIRY_SWEEP_MS);
  });
  app.addHook('onReady', async () => {
    await scheduleSweep(app.db, Date.now());
  });
  const provider: PaymentProvider = paymentProviderFor(app.config);
  const tags = ['deposits'];

  app.post('/deposit/validate-amount', { config: guard('user'), schema: { tags, body: depositAmountInput, response: { 200: okMessage } } }, async (request) => {
    await checkDepositAmount(app.db, request.body.amount, request.body.currency);
    return { status: 'OK' as const, message: 'The amount is valid.' };
  });

  app.post(
    '/deposit/validate',
    { config: guard('user'), schema: { tags, body: depositAmountInput, response: { 200: okEnvelope(z.array(paymentMethod)) } } },
    async (request) => {
      await checkDepositAmount(app.db, request.body.amount, request.body.currency);
      return ok(provider.methods());
    },
  );

  app.post(
    '/deposit/checkout',
    { config: guard('verified'), schema: { tags, body: depositCheckoutInput, response: { 200: okEnvelope(depositCheckoutResult) } } },
    async (request) => {
      const user = currentUser(request);
      await enforceRateLimit(app.db, `payment-start:${user.id}`, PAYMENT_STARTS, PAYMENT_MESSAGES.tooManyStarts);
      const checked = await checkDepositAmount(app.db, request.body.amount, request.body.currency);
      const method = provider.methods().find((m) => m.id === request.body.payment_method);
      if (!method) throw validationError({ payment_method: 'Please choose a payment method.' });
      // The intent (the deposit row) commits first; an Idempotency-Key replays it. The provider is
      // asked after the commit, never inside the transaction, keyed by the deposit's id.
      const key = idempotencyKeyOf(request);
      const intent = await runIdempotent(app.db, { userId: user.id, key, scope: 'deposit/checkout', body: request.body }, async (tx) => {
        const deposit = await createDeposit(tx, { userId: user.id, checked, provider: provider.name, paymentMethod: method.id });
        return { order_id: deposit.id };
      });
      const [deposit] = await app.db
        .select({ status: deposits.status, checkoutNonce: deposits.checkoutNonce })
        .from(deposits)
        .where(eq(deposits.id, intent.order_id));
      // A replay after the payment ended has nothing left to start: its status says what happened.
      if (deposit?.status !== 'processing') return ok({ order_id: intent.order_id, status: deposit?.status ?? ('failed' as const) });
      let start: Awaited<ReturnType<PaymentProvider['startCheckout']>>;
      try {
        start = await startCheckout(
          app.db,
          provider,
          {
            id: intent.order_id,
            currencyAmountMinor: checked.currencyAmountMinor,
            currency: checked.currency.code,
            email: user.email,
            checkoutNonce: deposit.checkoutNonce,
          },
          method,
        );
      } catch (err) {
        request.log.error({ err: { message: (err as Error).message }, depositId: intent.order_id }, 'payment provider refused the checkout');
        throw validationError({ payment_method: 'Checkout failed' }, 'Checkout failed');
      }
      return ok(
        start.widget
          ? { order_id: intent.order_id, status: 'processing' as const, widget_data: start.widget }
          : { order_id: intent.order_id, status: 'processing' as const, redirect_url: start.redirectUrl ?? '' },
      );
    },
  );

  app.get(
    '/deposit/status',
    { config: guard('user'), schema: { tags, querystring: depositStatusQuery, response: { 200: okEnvelope(depositStatusResult) } } },
    async (request) => {
      const userId = currentUser(request).id;
      return ok(await depositStatusOf(app.db, userId, request.query.order_id));
    },
  );

  app.get('/deposit/history', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(z.array(depositHistoryItem)) } } }, async (request) => {
    const userId = currentUser(request).id;
    return ok(await depositHistory(app.db, userId, provider.methods()));
  });

  /**
   * Provider webhooks, verified on the raw body. No session, no CSRF token: the signature is the
   * proof. A replayed event is answered 200 and applied once; a bad signature is a 400.
   */
  await app.register(async (hooks) => {
    hooks.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
    hooks.post(
      '/payments/webhook/:provider',
      {
        config: { csrf: false },
        schema: {
          tags: ['payments'],
          summary: "Receive a payment provider's webhook (signed; no session)",
          params: z.object({ provider: z.string().max(20) }),
          response: { 200: okEnvelope(z.object({ received: z.literal(true), result: z.enum(['applied', 'duplicate', 'ignored', 'refused']) })) },
        },
      },
      async (request, reply) => {
        if ((request.params as { provider: string }).provider !== provider.name) throw notFound();
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const event = await provider.parseWebhook(raw, request.headers);
        const result = await applyPaymentEvent(app, provider.name, event);
        return reply.code(200).send(ok({ received: true as const, result }));
      },
    );
  });

  if (provider.name === 'sandbox') await app.register(sandboxRoutes);
};
