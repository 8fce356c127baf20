import { adminCounterInput, adminDeclineInput, adminOffer, adminOffersQuery, amountToMinor, offer, offerIdParams, okEnvelope } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { sendStoredFile } from '../../lib/storage';
import { recordAudit } from '../audit';
import { findOffer, listOffersForStaff, moveOffer, type OfferRow, toOffer } from './offers.queries';

/** What the audit log keeps of an offer. */
const offerAudit = (row: OfferRow) => ({ status: row.status, service_price_minor: row.servicePriceMinor, status_note: row.statusNote });

/** Staff review of offers, under /api/admin. Every route declares guard('admin'). */
export const offersAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/offers',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: adminOffersQuery, response: { 200: okEnvelope(z.array(adminOffer)) } } },
    async (request) => ok(await listOffersForStaff(app.db, request.query.status)),
  );

  /** The offer's original file, for staff only (the creator's upload stays private). */
  app.get('/offers/:id/file', { config: guard('admin'), schema: { tags: ['admin'], params: offerIdParams } }, async (request, reply) => {
    const row = await findOffer(app.db, request.params.id);
    return sendStoredFile(reply, app.storage, row.originalPath, { visibility: 'private', disposition: 'attachment', filename: row.fileName });
  });

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
