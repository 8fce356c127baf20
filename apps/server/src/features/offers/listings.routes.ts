import { amountToMinor, listingPriceInput, minorToAmount, offer, offerIdParams, okEnvelope, tierPriceProblems } from '@atelier/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { offers, products } from '../../db/schema';
import { AppError, notFound, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { recordAudit } from '../audit';
import { priceChangeNeedsReview } from './offer-states';
import { moveOffer, type OfferRow, toOffer } from './offers.queries';

const NOT_A_LISTING = 'Only an approved listing can be changed here.';

/** What the audit log keeps of a listing: the offer's state and prices, and the product's. */
const listingAudit = (
  row: OfferRow,
  product: { priceMinor: number; status: string; personalPriceMinor?: number | null; extendedPriceMinor?: number | null },
) => ({
  status: row.status,
  user_price_minor: row.userPriceMinor,
  approved_price_minor: row.servicePriceMinor,
  product_price_minor: product.priceMinor,
  product_status: product.status,
  personal_price_minor: product.personalPriceMinor ?? null,
  extended_price_minor: product.extendedPriceMinor ?? null,
});

/**
 * The creator's own approved listing, locked (the offer row first, then its product: the lock order of
 * ledger.ts), or 404 when it is not theirs, and 409 when it is no approved or unlisted listing.
 */
async function lockOwnListing(tx: Db, userId: number, offerId: number) {
  const [row] = await tx
    .select()
    .from(offers)
    .where(and(eq(offers.id, offerId), eq(offers.userId, userId)))
    .for('update');
  if (!row) throw notFound('This offer does not exist.');
  if (row.dealType !== 'listing' || row.productId === null || (row.status !== 'approved' && row.status !== 'unlisted')) {
    throw new AppError('CONFLICT', NOT_A_LISTING);
  }
  const [product] = await tx
    .select({
      id: products.id,
      priceMinor: products.priceMinor,
      status: products.status,
      personalPriceMinor: products.personalPriceMinor,
      extendedPriceMinor: products.extendedPriceMinor,
    })
    .from(products)
    .where(eq(products.id, row.productId))
    .for('update');
  if (!product) throw new AppError('CONFLICT', NOT_A_LISTING);
  return { row, product };
}

/**
 * A creator manages their approved listing from My projects (issue 19): a new price, unlist, relist.
 * Every change is audited in its own transaction (the creator is the audit row's actor). A price more
 * than 50% away from the approved one sends the listing back to review, hidden until staff approve.
 */
export const listingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/offer/:id/listing',
    { config: guard('verified'), schema: { tags: ['offers'], params: offerIdParams, body: listingPriceInput, response: { 200: okEnvelope(offer) } } },
    async (request) => {
      const user = currentUser(request);
      const priceMinor = amountToMinor(request.body.price);
      const tierMinor = (v: number | null | undefined) => (v == null ? v : amountToMinor(v));
      const { row, review, tiers } = await app.db.transaction(async (tx) => {
        const { row: before, product } = await lockOwnListing(tx, user.id, request.params.id);
        // Licence tiers (issue 34): absent keeps a tier's price, null stops offering it; the rules hold
        // against the new commercial price (personal below it, extended above it).
        const personalPriceMinor = tierMinor(request.body.personal_price) === undefined ? product.personalPriceMinor : tierMinor(request.body.personal_price)!;
        const extendedPriceMinor = tierMinor(request.body.extended_price) === undefined ? product.extendedPriceMinor : tierMinor(request.body.extended_price)!;
        const problems = tierPriceProblems(priceMinor, personalPriceMinor, extendedPriceMinor);
        if (Object.keys(problems).length) throw validationError(problems);
        const approvedMinor = before.servicePriceMinor ?? before.userPriceMinor;
        const review = priceChangeNeedsReview(approvedMinor, priceMinor);
        let after: OfferRow;
        let productAfter: {
          priceMinor: number;
          status: 'hidden' | 'published' | 'draft';
          personalPriceMinor: number | null;
          extendedPriceMinor: number | null;
        };
        if (review) {
          after = await moveOffer(tx, {
            offerId: before.id,
            ownerId: user.id,
            to: 'pending',
            actor: 'creator',
            actorId: user.id,
            note: `New price €${minorToAmount(priceMinor).toFixed(2)} (approved at €${minorToAmount(approvedMinor).toFixed(2)}).`,
            set: { userPriceMinor: priceMinor },
          });
          productAfter = { priceMinor: product.priceMinor, status: 'hidden', personalPriceMinor, extendedPriceMinor };
        } else {
          [after] = (await tx.update(offers).set({ userPriceMinor: priceMinor, updatedAt: new Date() }).where(eq(offers.id, before.id)).returning()) as [
            OfferRow,
          ];
          productAfter = { priceMinor, status: product.status, personalPriceMinor, extendedPriceMinor };
        }
        await tx.update(products).set(productAfter).where(eq(products.id, product.id));
        await recordAudit(tx, {
          staffId: user.id,
          action: review ? 'listing.price_review' : 'listing.price',
          subjectType: 'offer',
          subjectId: before.id,
          before: listingAudit(before, product),
          after: listingAudit(after, productAfter),
        });
        return { row: after, review, tiers: { personalPriceMinor, extendedPriceMinor } };
      });
      request.log.info({ offerId: row.id, review }, 'listing price changed');
      return ok(
        toOffer(row, tiers),
        review ? 'The new price is more than 50% away from the approved one: your work is hidden until we review it again.' : 'The new price is saved.',
      );
    },
  );

  for (const [path, to, status, action, message] of [
    ['unlist', 'unlisted', 'hidden', 'listing.unlist', 'Your work is no longer listed in the shop.'],
    ['relist', 'approved', 'published', 'listing.relist', 'Your work is listed in the shop again.'],
  ] as const) {
    app.post(
      `/offer/:id/${path}`,
      { config: guard('verified'), schema: { tags: ['offers'], params: offerIdParams, response: { 200: okEnvelope(offer) } } },
      async (request) => {
        const user = currentUser(request);
        const row = await app.db.transaction(async (tx) => {
          const { row: before, product } = await lockOwnListing(tx, user.id, request.params.id);
          // moveOffer refuses what the table does not list (unlisting twice, relisting a listed work): 409.
          const after = await moveOffer(tx, { offerId: before.id, ownerId: user.id, to, actor: 'creator', actorId: user.id });
          await tx.update(products).set({ status }).where(eq(products.id, product.id));
          await recordAudit(tx, {
            staffId: user.id,
            action,
            subjectType: 'offer',
            subjectId: before.id,
            before: listingAudit(before, product),
            after: listingAudit(after, { priceMinor: product.priceMinor, status }),
          });
          return after;
        });
        request.log.info({ offerId: row.id, status: row.status }, `listing ${path}ed`);
        return ok(toOffer(row), message);
      },
    );
  }
};
