import { decimalToMinor, earningsSummary, okEnvelope, withdrawal, withdrawInput, withdrawResult } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { idempotencyKeyOf, runIdempotent } from '../../lib/idempotency';
import { isUniqueViolation } from '../../lib/pg-errors';
import {
  amountAnswer,
  availableEarningsOf,
  earningsOf,
  getCommerceSettings,
  holdWithdrawal,
  InsufficientFunds,
  receivableOwedOf,
  settleReceivable,
} from '../ledger';
import { insertPayout, type PayoutProvider, payoutProviderFor, preparePayoutDestination } from '../payouts';
import { requireFreshSecondFactor } from '../security';
import { requireSellerDetails } from '../sellers';
import { listWithdrawals, registerEarningsJobs, toWithdrawal, withdrawalInFlight, withdrawalMessages } from './earnings';

/** No single withdrawal is above this (1,000,000 €): a bound for the arithmetic, far above any earnings. */
const MAX_WITHDRAWAL_MINOR = 100_000_000;

const NO_CARD = 'Card payouts are not available: please choose a bank transfer.';

/** Tests hand in a provider of their own; otherwise PAYOUT_PROVIDER decides (the same one payouts use). */
export type EarningsRoutesOptions = { provider?: PayoutProvider };

export const earningsRoutes: FastifyPluginAsyncZod<EarningsRoutesOptions> = async (app, opts) => {
  const provider = opts.provider ?? payoutProviderFor(app.config);
  registerEarningsJobs(app);

  app.get('/earnings', { config: guard('user'), schema: { tags: ['earnings'], response: { 200: okEnvelope(earningsSummary) } } }, async (request) => {
    const user = currentUser(request);
    const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
    const settings = await getCommerceSettings(app.db);
    const e = await earningsOf(app.db, user.id, settings.earnings_clearing_days);
    return ok({
      pending: amountAnswer(e.pending, currency),
      available: amountAnswer(e.available, currency),
      withdrawn: amountAnswer(e.withdrawn, currency),
      lifetime: amountAnswer(e.lifetime, currency),
      next_release_at: e.nextReleaseAt ? Math.floor(e.nextReleaseAt.getTime() / 1000) : null,
      held: amountAnswer(e.held, currency),
      owed: amountAnswer(e.owed, currency),
    });
  });

  app.get(
    '/earnings/withdrawals',
    { config: guard('user'), schema: { tags: ['earnings'], response: { 200: okEnvelope(z.array(withdrawal)) } } },
    async (request) => {
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      return ok(await listWithdrawals(app.db, currentUser(request).id, currency));
    },
  );

  /**
   * Withdraws available earnings. Checked first without locks (so nothing is registered for nothing):
   * the minimum, the available amount, one in flight. The provider then registers the card or IBAN
   * (no transaction open). One transaction writes the payout row (a unique index allows one processing
   * withdrawal per creator: a parallel second one gets 409), then moves the amount available →
   * withdrawals:in-flight (refused if short: 422) and enqueues `payout.settle`; the provider is called
   * by that job after the commit. An Idempotency-Key replays the first answer.
   */
  app.post(
    '/earnings/withdraw',
    { config: guard('verified'), schema: { tags: ['earnings'], body: withdrawInput, response: { 200: okEnvelope(withdrawResult) } } },
    async (request) => {
      const user = currentUser(request);
      // Money paid out to a trader: the law asks for their trader details first (issue 33).
      await requireSellerDetails(app.db, user.id);
      const input = request.body;
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      let amountMinor: number;
      try {
        amountMinor = decimalToMinor(input.amount);
      } catch (err) {
        throw validationError({ amount: err instanceof RangeError ? err.message : 'Please enter an amount such as 12.50.' });
      }
      if (!Number.isSafeInteger(amountMinor) || amountMinor > MAX_WITHDRAWAL_MINOR) throw validationError({ amount: withdrawalMessages.aboveMax });
      const key = idempotencyKeyOf(request);
      const settings = await getCommerceSettings(app.db);
      const min = Math.round(settings.withdrawal_min * 100);
      if (amountMinor <= 0 || amountMinor < min) throw validationError({ amount: withdrawalMessages.belowMin(min) });
      // A receivable below zero (refunds of money already withdrawn) is paid back from earnings first; what is still owed blocks withdrawals.
      if ((await receivableOwedOf(app.db, user.id)) > 0) {
        await settleReceivable(app.db, user.id);
        const owed = await receivableOwedOf(app.db, user.id);
        if (owed > 0) throw validationError({ amount: withdrawalMessages.owesRefunds(owed) });
      }
      if (!key && (await withdrawalInFlight(app.db, user.id))) throw new AppError('CONFLICT', withdrawalMessages.inFlight);
      const available = await availableEarningsOf(app.db, user.id);
      if (!key && amountMinor > available) {
        // A parallel withdrawal may have taken the money since the check above: that one is the answer, not the amount.
        if (await withdrawalInFlight(app.db, user.id)) throw new AppError('CONFLICT', withdrawalMessages.inFlight);
        throw validationError({ amount: withdrawalMessages.aboveAvailable(available) });
      }
      if (!provider.handles(input.method)) throw validationError({ method: NO_CARD });
      // Money leaving the platform: with a second factor, a fresh one (issue 21's step-up).
      await requireFreshSecondFactor(request);
      const prepared = await preparePayoutDestination(app.config.sessionSecret, provider, { id: user.id, email: user.email }, input.method, input);
      let requested = false;
      try {
        const answer = await runIdempotent(app.db, { userId: user.id, key, scope: 'earnings/withdraw', body: request.body }, async (tx) => {
          const payout = await insertPayout(tx, provider, prepared, { kind: 'withdrawal', userId: user.id, amountMinor });
          await holdWithdrawal(tx, { userId: user.id, payoutId: payout.id, amountMinor });
          request.log.info({ payoutId: payout.id, method: input.method, provider: provider.name }, 'withdrawal requested');
          requested = true;
          return { withdrawal: toWithdrawal(payout, currency) };
        });
        // A replayed Idempotency-Key answers again without a new request: only a new one counts.
        if (requested) app.metrics.money('withdrawals', 'requested');
        return ok(answer, 'Your withdrawal is on its way.');
      } catch (err) {
        if (err instanceof InsufficientFunds) throw validationError({ amount: withdrawalMessages.aboveAvailable(await availableEarningsOf(app.db, user.id)) });
        // A unique index allows one processing withdrawal per creator: the second insert fails with 23505.
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', withdrawalMessages.inFlight);
        throw err;
      }
    },
  );
};
