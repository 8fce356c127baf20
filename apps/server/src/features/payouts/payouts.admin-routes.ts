import { adminPayoutOutcome, adminPayoutsQuery, isIbanValid, okEnvelope, payout } from '@atelier/shared';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { payouts } from '../../db/schema';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { recordAudit } from '../audit';
import { askProviderAgain, assertAwaitsStaff, listPayouts, settlePayout, toPayout } from './payouts';
import { sepaCreditTransferXml } from './sepa-export';

const payoutIdParams = z.object({
  id: z.coerce.number({ error: 'The payout id must be a number.' }).int().positive().max(Number.MAX_SAFE_INTEGER, 'This payout id is out of range.'),
});

/** Staff payouts queue, under /api/admin: masked details only; a bank transfer is marked paid with its reference (or failed) here. */
export const payoutsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/payouts',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: adminPayoutsQuery, response: { 200: okEnvelope(z.array(payout)) } } },
    async (request) => ok(await listPayouts(app.db, request.query.status)),
  );

  /**
   * Staff end a payout no provider is sending: marked paid with the bank transfer's reference, or
   * failed with a reason. A payout whose job still waits or runs is the provider's: 409.
   */
  app.post(
    '/payouts/:id/complete',
    {
      config: { ...guard('admin'), stepUp: true },
      schema: { tags: ['admin'], params: payoutIdParams, body: adminPayoutOutcome, response: { 200: okEnvelope(payout) } },
    },
    async (request) => {
      const staffId = request.user!.id;
      const { outcome, reason, reference } = request.body;
      const row = await app.db.transaction(async (tx) => {
        const [current] = await tx
          .select({ provider: payouts.provider, status: payouts.status, providerState: payouts.providerState })
          .from(payouts)
          .where(eq(payouts.id, request.params.id));
        if (current) await assertAwaitsStaff(tx, request.params.id, current.provider);
        const settled = await settlePayout(tx, {
          payoutId: request.params.id,
          outcome,
          reason,
          actor: 'staff',
          actorId: staffId,
          transferReference: outcome === 'paid' ? reference : undefined,
        });
        await recordAudit(tx, {
          staffId,
          action: 'payout.complete',
          subjectType: 'payout',
          subjectId: request.params.id,
          before: { status: current!.status, provider_state: current!.providerState },
          after: { status: settled!.status, failure_reason: settled!.failureReason, transfer_reference: settled!.transferReference },
        });
        return settled;
      });
      request.log.info({ payoutId: request.params.id, outcome, by: staffId }, 'payout settled by staff');
      if (row?.kind === 'withdrawal') app.metrics.money('withdrawals', row.status);
      return ok(toPayout(row!, { awaitsStaff: false }), outcome === 'paid' ? 'The payout is marked paid.' : 'The payout is marked failed.');
    },
  );

  /** A payout that needs review: the provider is asked again, by payout id, whether it paid (202-like: the job answers). */
  app.post(
    '/payouts/:id/reconcile',
    { config: guard('admin'), schema: { tags: ['admin'], params: payoutIdParams, response: { 200: okEnvelope(payout) } } },
    async (request) => {
      const row = await askProviderAgain(app.db, request.params.id);
      request.log.info({ payoutId: row.id, by: request.user!.id }, 'payout: provider asked again');
      return ok(toPayout(row, { awaitsStaff: false }), 'The provider is asked again; its answer shows here in a moment.');
    },
  );

  /**
   * The processing SEPA payouts as a pain.001 credit-transfer file for the platform's bank (debtor
   * account from the query). Staff mark each transfer paid once the bank has executed it.
   */
  app.get(
    '/payouts/sepa-export',
    {
      config: guard('admin'),
      schema: {
        tags: ['admin'],
        querystring: z.object({
          debtor_iban: z
            .string({ error: "Please give the platform's IBAN." })
            .max(50)
            .transform((v) => v.replace(/\s+/g, '').toUpperCase())
            .refine(isIbanValid, 'Please enter a valid IBAN'),
          debtor_name: z.string().trim().min(1).max(70).default('Atelier'),
        }),
      },
    },
    async (request, reply) => {
      const rows = await app.db
        .select()
        .from(payouts)
        // Only the transfers staff make: a payout with a provider token is sent by its provider.
        .where(and(eq(payouts.status, 'processing'), eq(payouts.method, 'sepa'), isNull(payouts.destinationToken)))
        .orderBy(asc(payouts.id));
      const xml = sepaCreditTransferXml(rows, {
        secret: app.config.sessionSecret,
        debtorIban: request.query.debtor_iban,
        debtorName: request.query.debtor_name,
      });
      request.log.info({ payouts: rows.length, by: request.user?.id }, 'SEPA payouts exported');
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="sepa-payouts-${new Date().toISOString().slice(0, 10)}.xml"`)
        .header('cache-control', 'no-store')
        .send(xml);
    },
  );
};
