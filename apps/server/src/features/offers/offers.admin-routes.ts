import { createHmac, timingSafeEqual } from 'node:crypto';
import { adminCounterInput, adminDeclineInput, adminOffer, adminOffersQuery, amountToMinor, offer, offerIdParams, okEnvelope } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { offers } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { sendStoredFile } from '../../lib/storage';
import { recordAudit } from '../audit';
import { createProductFromOffer, findOffer, listOffersForStaff, moveOffer, type OfferRow, toOffer } from './offers.queries';
import { offeredPromptText } from './offers.routes';

/** How long a staff file link works. */
const FILE_LINK_SECONDS = 15 * 60;

const fileSignature = (secret: string, offerId: number, expires: number) =>
  createHmac('sha256', secret).update(`offer-file:${offerId}:${expires}`).digest('base64url');

/** The offer's original as a signed, expiring link (staff only: the route also checks the session). */
function signedFileUrl(secret: string, offerId: number): string {
  const expires = Math.floor(Date.now() / 1000) + FILE_LINK_SECONDS;
  return `/api/admin/offers/${offerId}/file?expires=${expires}&signature=${fileSignature(secret, offerId, expires)}`;
}

const fileLinkQuery = z.object({
  expires: z.coerce.number({ error: 'This file link is not valid.' }).int().min(0).max(Number.MAX_SAFE_INTEGER),
  signature: z.string({ error: 'This file link is not valid.' }).max(100),
});

/** What the audit log keeps of an offer. */
const offerAudit = (row: OfferRow) => ({ status: row.status, service_price_minor: row.servicePriceMinor, status_note: row.statusNote });

/** Staff review of offers, under /api/admin. Every route declares guard('admin'). */
export const offersAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/offers',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: adminOffersQuery, response: { 200: okEnvelope(z.array(adminOffer)) } } },
    async (request) => {
      const list = await listOffersForStaff(app.db, request.query.status);
      return ok(list.map((o) => ({ ...o, file_url: signedFileUrl(app.config.sessionSecret, o.id) })));
    },
  );

  /**
   * The offer's original file, for staff only (the creator's upload stays private): a signed link
   * from the list, valid for 15 minutes, opened in a staff member's session.
   */
  app.get(
    '/offers/:id/file',
    { config: guard('admin'), schema: { tags: ['admin'], params: offerIdParams, querystring: fileLinkQuery } },
    async (request, reply) => {
      const { expires, signature } = request.query;
      const expected = Buffer.from(fileSignature(app.config.sessionSecret, request.params.id, expires));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('FORBIDDEN', 'This file link is not valid.');
      if (expires < Date.now() / 1000) throw new AppError('FORBIDDEN', 'This file link has expired. Reload the review queue for a new one.');
      const row = await findOffer(app.db, request.params.id);
      return sendStoredFile(reply, app.storage, row.originalPath, { visibility: 'private', disposition: 'attachment', filename: row.fileName });
    },
  );

  /** Make an offer to buy the work at service_price (the creator's own price is a counter at user_price). */
  app.post(
    '/offers/:id/counter',
    { config: guard('admin'), schema: { tags: ['admin'], params: offerIdParams, body: adminCounterInput, response: { 200: okEnvelope(offer) } } },
    async (request) => {
      const staffId = request.user!.id;
      const row = await app.db.transaction(async (tx) => {
        const before = await findOffer(tx, request.params.id);
        const moved = await moveOffer(tx, {
          offerId: request.params.id,
          to: 'offer',
          actor: 'staff',
          actorId: staffId,
          note: request.body.note,
          set: { servicePriceMinor: amountToMinor(request.body.service_price) },
        });
        await recordAudit(tx, {
          staffId,
          action: 'offer.counter',
          subjectType: 'offer',
          subjectId: moved.id,
          before: offerAudit(before),
          after: { ...offerAudit(moved), note: request.body.note },
        });
        return moved;
      });
      request.log.info({ offerId: row.id, by: staffId }, 'offer countered by staff');
      return ok(toOffer(row), 'The offer is sent to the creator.');
    },
  );

  /**
   * Approve a listing as it is: published in the shop as the creator's own product at their price
   * (platform_owned false), with no payout: the creator earns their share of each sale. A buyout is
   * answered with an offer instead (409 here).
   */
  app.post(
    '/offers/:id/approve',
    { config: guard('admin'), schema: { tags: ['admin'], params: offerIdParams, response: { 200: okEnvelope(offer) } } },
    async (request) => {
      const staffId = request.user!.id;
      const seen = await findOffer(app.db, request.params.id);
      // A prompt's text is read from storage before the transaction (no I/O while rows are locked).
      const promptText = await offeredPromptText(app, seen.id, seen.userId);
      const row = await app.db.transaction(async (tx) => {
        const before = await findOffer(tx, request.params.id);
        const moved = await moveOffer(tx, {
          offerId: request.params.id,
          to: 'approved',
          actor: 'staff',
          actorId: staffId,
          set: { servicePriceMinor: before.userPriceMinor },
        });
        const productId = await createProductFromOffer(tx, moved, { promptText });
        const [withProduct] = await tx.update(offers).set({ productId }).where(eq(offers.id, moved.id)).returning();
        await recordAudit(tx, {
          staffId,
          action: 'offer.approve',
          subjectType: 'offer',
          subjectId: moved.id,
          before: offerAudit(before),
          after: { ...offerAudit(withProduct!), product_id: productId },
        });
        return withProduct!;
      });
      request.log.info({ offerId: row.id, by: staffId, productId: row.productId }, 'listing approved by staff');
      return ok(toOffer(row), 'The work is listed in the shop.');
    },
  );

  /** Decline with a reason: declined_by_service, or declined for spam and policy violations. */
  app.post(
    '/offers/:id/decline',
    { config: guard('admin'), schema: { tags: ['admin'], params: offerIdParams, body: adminDeclineInput, response: { 200: okEnvelope(offer) } } },
    async (request) => {
      const staffId = request.user!.id;
      const row = await app.db.transaction(async (tx) => {
        const before = await findOffer(tx, request.params.id);
        const moved = await moveOffer(tx, { offerId: request.params.id, to: request.body.status, actor: 'staff', actorId: staffId, note: request.body.reason });
        await recordAudit(tx, {
          staffId,
          action: 'offer.decline',
          subjectType: 'offer',
          subjectId: moved.id,
          before: offerAudit(before),
          after: offerAudit(moved),
        });
        return moved;
      });
      request.log.info({ offerId: row.id, by: staffId, status: row.status }, 'offer declined by staff');
      return ok(toOffer(row), 'The offer is declined.');
    },
  );
};
