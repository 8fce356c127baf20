import {
  type CardPayoutInput,
  cardPayoutInput,
  type OfferStatus,
  offer,
  okEnvelope,
  type SepaPayoutInput,
  savedContactDetails,
  sepaPayoutInput,
} from '@atelier/shared';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { payouts } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { canTransition, findOwnOffer, illegalMoveMessage, moveOffer, toOffer } from '../offers';
import { requireFreshSecondFactor } from '../security';
import { type PayoutProvider, payoutProviderFor } from './payout-provider';
import { insertPayout, markPayoutNeedsReview, PAYOUT_RECONCILE, PAYOUT_SETTLE, preparePayoutDestination, reconcilePayout, sendPayout } from './payouts';

const NO_PRICE = 'This offer has no accepted price to pay out.';

/**
 * The creator asks to be paid for an accepted offer (SPEC §7 /offer/request-payout/{method}). The
 * offer is checked first (404 for another user's, 409 unless approved). Then, before any transaction,
 * the provider turns the card (or account) into what may be stored: a token, brand and last four.
 * One transaction then locks the offer, moves it to payout_processing, writes the payout and, when the
 * provider sends it, the `payout.settle` job keyed by the payout's id. No money moves here: the job
 * calls the provider after the commit, so parallel requests make one payout and one provider call.
 */
async function requestPayout(
  app: FastifyInstance,
  request: FastifyRequest,
  provider: PayoutProvider,
  method: 'card' | 'sepa',
  input: CardPayoutInput | SepaPayoutInput,
) {
  const user = currentUser(request);
  const current = await findOwnOffer(app.db, user.id, input.id);
  // moveOffer checks again with the row locked; checked here first so nothing is registered for nothing.
  const from = current.status as OfferStatus;
  if (!canTransition(from, 'payout_processing', 'creator', current.dealType)) throw new AppError('CONFLICT', illegalMoveMessage(from, 'payout_processing'));
  if (current.servicePriceMinor === null) throw new AppError('CONFLICT', NO_PRICE);
  // New payout details decide where money goes: with a second factor they need a fresh one (issue 21).
  await requireFreshSecondFactor(request);
  const prepared = await preparePayoutDestination(app.config.sessionSecret, provider, { id: user.id, email: user.email }, method, input);

  const row = await app.db.transaction(async (tx) => {
    // The offer row first (domain rows before anything else): the second of two parallel requests waits here, then gets 409.
    const moved = await moveOffer(tx, {
      offerId: current.id,
      ownerId: user.id,
      to: 'payout_processing',
      actor: 'creator',
      actorId: user.id,
      require: (o) => (o.servicePriceMinor === null ? NO_PRICE : null),
    });
    const payout = await insertPayout(tx, provider, prepared, { kind: 'offer', offerId: moved.id, userId: user.id, amountMinor: moved.servicePriceMinor! });
    request.log.info({ offerId: moved.id, payoutId: payout.id, method, provider: provider.name }, 'payout requested');
    return moved;
  });
  const message =
    method === 'card'
      ? 'Deal is completed. You will receive your funds within 3-5 business days to your card.'
      : 'Deal is completed. You will receive your funds within 5 business days.';
  return ok(toOffer(row), message);
}

/** Tests hand in a provider of their own (a slow stub, Stripe with a fake HTTP client); otherwise PAYOUT_PROVIDER decides. */
export type PayoutsRoutesOptions = { provider?: PayoutProvider };

export const payoutsRoutes: FastifyPluginAsyncZod<PayoutsRoutesOptions> = async (app, opts) => {
  const provider = opts.provider ?? payoutProviderFor(app.config);

  /** Sends a payout through its provider after the commit and records the answer; a pending one is asked again by the retry. */
  app.jobs.register<{ payoutId: number }>(
    PAYOUT_SETTLE,
    async ({ payoutId }, { db, log }) => {
      const settled = await sendPayout(db, provider, payoutId, log);
      // A creator's withdrawal ended at the provider (an offer's payout is the platform buying a work).
      if (settled?.kind === 'withdrawal') app.metrics.money('withdrawals', settled.status);
    },
    {
      attempts: 10,
      backoffMs: 30_000,
      // Given up: the provider may have paid it, so it is neither failed nor paid but asked about (issue 30).
      onFailed: async ({ payoutId }, { db, log }) => markPayoutNeedsReview(db, payoutId, log),
    },
  );
  /** Asks the provider, by payout id, whether a payout whose settle job gave up was paid. */
  app.jobs.register<{ payoutId: number }>(PAYOUT_RECONCILE, async ({ payoutId }, { db, log }) => reconcilePayout(db, provider, payoutId, log), {
    attempts: 8,
    backoffMs: 60_000,
  });

  /** Prefills the contact dialog: remembered from the last payout, else taken from the profile. */
  app.get(
    '/offer/contact-details',
    { config: guard('verified'), schema: { tags: ['offers'], response: { 200: okEnvelope(savedContactDetails) } } },
    async (request) => {
      const user = currentUser(request);
      const [last] = await app.db.select({ contact: payouts.contact }).from(payouts).where(eq(payouts.userId, user.id)).orderBy(desc(payouts.id)).limit(1);
      const fromProfile = {
        first_name: user.name,
        last_name: user.surname,
        email: user.email,
        phone: user.phone,
        address: '',
        city: '',
        post_code: '',
        country: null,
        currency: 'EUR',
      };
      const parsed = savedContactDetails.safeParse({ ...fromProfile, ...(last?.contact as object | undefined) });
      return ok(parsed.success ? parsed.data : fromProfile);
    },
  );

  const card = { config: guard('verified'), schema: { tags: ['offers'], body: cardPayoutInput, response: { 200: okEnvelope(offer) } } };
  app.post('/offer/request-payout', card, async (request) => requestPayout(app, request, provider, 'card', request.body));
  app.post('/offer/request-payout/card', card, async (request) => requestPayout(app, request, provider, 'card', request.body));
  app.post(
    '/offer/request-payout/sepa',
    { config: guard('verified'), schema: { tags: ['offers'], body: sepaPayoutInput, response: { 200: okEnvelope(offer) } } },
    async (request) => requestPayout(app, request, provider, 'sepa', request.body),
  );
};
