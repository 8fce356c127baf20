import { adminDispute, adminDisputesQuery, adminFlaggedDeposit, okEnvelope } from '@atelier/shared';
import { desc, eq, isNotNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deposits, disputes, users } from '../../db/schema';
import { guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { amountAnswer } from '../ledger';

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** The money screen's disputes (chargebacks), under /api/admin: newest first, by status. */
export const disputesAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/disputes',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: adminDisputesQuery, response: { 200: okEnvelope(z.array(adminDispute)) } } },
    async (request) => {
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      const rows = await app.db
        .select({ d: disputes, user: { id: users.id, nickname: users.nickname, email: users.email } })
        .from(disputes)
        .innerJoin(users, eq(users.id, disputes.userId))
        .where(request.query.status ? eq(disputes.status, request.query.status) : undefined)
        .orderBy(desc(disputes.id))
        .limit(500);
      return ok(
        rows.map(({ d, user }) => ({
          id: d.id,
          provider: d.provider,
          provider_dispute_id: d.providerDisputeId,
          deposit_id: d.depositId,
          user,
          status: d.status,
          reason: d.reason,
          amount: amountAnswer(Number(d.amountMinor), currency),
          from_balance_minor: Number(d.fromBalanceMinor),
          from_receivable_minor: Number(d.fromReceivableMinor),
          created_at: seconds(d.createdAt)!,
          closed_at: seconds(d.closedAt),
        })),
      );
    },
  );

  /** Deposits whose payment event did not match their amount or currency (issue 30): not credited, for staff to look at. */
  app.get(
    '/deposits/flagged',
    { config: guard('admin'), schema: { tags: ['admin'], response: { 200: okEnvelope(z.array(adminFlaggedDeposit)) } } },
    async () => {
      const rows = await app.db
        .select({ d: deposits, user: { id: users.id, nickname: users.nickname, email: users.email } })
        .from(deposits)
        .innerJoin(users, eq(users.id, deposits.userId))
        .where(isNotNull(deposits.flaggedAt))
        .orderBy(desc(deposits.flaggedAt), desc(deposits.id))
        .limit(200);
      return ok(
        rows.map(({ d, user }) => ({
          id: d.id,
          provider: d.provider,
          user,
          status: d.status,
          currency_amount_minor: Number(d.currencyAmountMinor),
          currency: d.currency,
          reason: d.flaggedReason ?? '',
          flagged_at: seconds(d.flaggedAt)!,
        })),
      );
    },
  );
};
