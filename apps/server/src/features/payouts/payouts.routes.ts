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
import { enqueue } from '../../lib/jobs';
import { canTransition, findOwnOffer, illegalMoveMessage, moveOffer, toOffer } from '../offers';
import { createSandboxPayoutProvider, type PayoutProvider } from './payout-provider';
import { encryptIban, maskIban, PAYOUT_SETTLE, settlePayout } from './payouts';

const contactOf = (input: CardPayoutInput | SepaPayoutInput) => ({
  first_name: input.first_name,
  last_name: input.last_name,
  email: input.email,
  phone: input.phone,
  address: input.address,
  city: input.city,
  post_code: input.post_code,
  country: input.country,
  currency: input.currency,
});

const NO_PRICE = 'This offer has no accepted price to pay out.';

/**
 * The creator asks to be paid for an accepted offer (SPEC §7 /offer/request-payout/{method}). The
 * offer is checked first (404 for another user's, 409 unless approved), then the provider gets the
 * details, then one transaction moves the offer to payout_processing and writes the payout with
 * masked details only; a card payout is settled by the `payout.settle` job.
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
  // moveOffer checks again with the row locked; checked here first so no payout is started for nothing.
  const from = current.status as OfferStatus;
  if (!canTransition(from, 'payout_processing', 'creator')) throw new AppError('CONFLICT', illegalMoveMessage(from, 'payout_processing'));
  const amountMinor = current.servicePriceMinor;
  if (amountMinor === null) throw new AppError('CONFLICT', NO_PRICE);
  let details: Partial<typeof payouts.$inferInsert>;
  let providerRef: string;
  if (method === 'card') {
    const card = input as CardPayoutInput;
    const started = await provider.startCardPayout({
      payoutId: 0,
      amountMinor,
      currency: 'EUR',
      card: { number: card.card_number, expMonth: card.expire_month, expYear: card.expire_year, holder: card.card_holder_name },
    });
    providerRef = started.providerRef;
    details = { cardBrand: started.brand, cardLast4: started.last4, holderName: card.card_holder_name };
  } else {
    const sepa = input as SepaPayoutInput;
    const started = await provider.startSepaPayout({ payoutId: 0, amountMinor, currency: 'EUR', iban: sepa.account_number, name: sepa.recipient_full_name });
    providerRef = started.providerRef;
    details = {
      ibanMasked: maskIban(sepa.account_number),
      ibanEncrypted: encryptIban(sepa.account_number, app.config.sessionSecret),
      holderName: sepa.recipient_full_name,
    };
  }
  const row = await app.db.transaction(async (tx) => {
    const moved = await moveOffer(tx, {
      offerId: current.id,
      ownerId: user.id,
      to: 'payout_processing',
      actor: 'creator',
      actorId: user.id,
      require: (o) => (o.servicePriceMinor === null ? NO_PRICE : null),
    });
    const [payout] = await tx
      .insert(payouts)
      .values({
        offerId: moved.id,
        userId: user.id,
        method,
        provider: provider.name,
        amountMinor: moved.servicePriceMinor!,
        holderName: details.holderName!,
        contact: contactOf(input),
        providerRef,
        ...details,
      })
      .returning({ id: payouts.id });
    if (method === 'card') {
      const runAt = new Date(Date.now() + app.config.payments.sandboxPayoutDelaySeconds * 1000);
      await enqueue(tx, PAYOUT_SETTLE, { payoutId: payout!.id }, { runAt });
    }
    request.log.info({ offerId: moved.id, payoutId: payout!.id, method }, 'payout requested');
    return moved;
  });
  const message =
    method === 'card'
      ? 'Deal is completed. You will receive your funds within 3-5 business days to your card.'
      : 'Deal is completed. You will receive your funds within 5 business days.';
  return ok(toOffer(row), message);
}

export const payoutsRoutes: FastifyPluginAsyncZod = async (app) => {
  const provider = createSandboxPayoutProvider();

  /** Asks the provider how a card payout ended; a pending one is asked again by the job's retry. */
  app.jobs.register<{ payoutId: number }>(
    PAYOUT_SETTLE,
    async ({ payoutId }, { db }) => {
      const [row] = await db.select().from(payouts).where(eq(payouts.id, payoutId));
      if (row?.status !== 'processing' || !row.providerRef) return;
      const outcome = await provider.payoutOutcome(row.providerRef);
      if (outcome.state === 'pending') throw new Error('The payout is still pending at the provider.');
      await settlePayout(db, { payoutId, outcome: outcome.state, reason: outcome.state === 'failed' ? outcome.reason : undefined, actor: 'system' });
    },
    { attempts: 10, backoffMs: 30_000 },
  );

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
