import { adminPayoutOutcome, adminPayoutsQuery, okEnvelope, payout } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { listPayouts, settlePayout, toPayout } from './payouts';

const payoutIdParams = z.object({
  id: z.coerce.number({ error: 'The payout id must be a number.' }).int().positive().max(Number.MAX_SAFE_INTEGER, 'This payout id is out of range.'),
});

/** Staff payouts queue, under /api/admin: masked details only; a SEPA transfer is marked done (or any payout failed) here. */
export const payoutsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/payouts',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: adminPayoutsQuery, response: { 200: okEnvelope(z.array(payout)) } } },
    async (request) => ok((await listPayouts(app.db, request.query.status)).map(toPayout)),
  );

  app.post(
    '/payouts/:id/complete',
    { config: guard('admin'), schema: { tags: ['admin'], params: payoutIdParams, body: adminPayoutOutcome, response: { 200: okEnvelope(payout) } } },
    async (request) => {
      const staffId = request.user!.id;
      const row = await settlePayout(app.db, {
        payoutId: request.params.id,
        outcome: request.body.outcome,
        reason: request.body.reason,
        actor: 'staff',
        actorId: staffId,
      });
      request.log.info({ payoutId: request.params.id, outcome: request.body.outcome, by: staffId }, 'payout settled by staff');
      return ok(toPayout(row!), request.body.outcome === 'paid' ? 'The payout is marked paid.' : 'The payout is marked failed.');
    },
  );
};
