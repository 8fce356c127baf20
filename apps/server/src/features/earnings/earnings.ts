import { minorToAmount, type Withdrawal } from '@atelier/shared';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { payouts } from '../../db/schema';
import type { DisplayCurrency } from '../../lib/display-currency';
import { amountAnswer, getCommerceSettings, releaseDueEarnings, settleAllReceivables } from '../ledger';
import { maskIban, type PayoutRow } from '../payouts';

/**
 * Creator earnings (issue 19). The rules: a creator's share of a sale or unlock is pending for
 * `earnings_clearing_days`, then the `earnings.release` job makes it available (once per sale line);
 * available earnings are spent after the balance (postSale) or withdrawn (a payout of kind
 * 'withdrawal', at most one in flight, at least `withdrawal_min`). The journal entries are the
 * ledger's (features/ledger/earnings.ts); the payout's life is the payouts feature's.
 */
export const EARNINGS_RELEASE = 'earnings.release';
/** How often the release job looks for due lines. */
export const RELEASE_EVERY_SECONDS = 300;

export function registerEarningsJobs(app: FastifyInstance) {
  app.jobs.register(EARNINGS_RELEASE, async (_payload, ctx) => {
    const { earnings_clearing_days } = await getCommerceSettings(ctx.db);
    const released = await releaseDueEarnings(ctx.db, { clearingDays: earnings_clearing_days });
    if (released > 0) ctx.log.info({ released }, 'earnings released');
    // Receivables (refunds of money already withdrawn) are paid back from earnings first, whichever way the sale came in.
    const settled = await settleAllReceivables(ctx.db);
    if (settled > 0) ctx.log.info({ settledMinor: settled }, 'receivables settled from earnings');
  });
  app.jobs.schedule(EARNINGS_RELEASE, RELEASE_EVERY_SECONDS);
}

export function toWithdrawal(row: PayoutRow, currency: DisplayCurrency): Withdrawal {
  return {
    id: row.id,
    status: row.status,
    amount: amountAnswer(row.amountMinor, currency),
    method: row.method,
    destination: row.method === 'card' ? `${row.cardBrand ?? 'card'} •••• ${row.cardLast4 ?? ''}` : (row.ibanMasked ?? maskIban('')),
    failure_reason: row.failureReason,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
  };
}

/** The creator's withdrawals, newest first. */
export async function listWithdrawals(db: Db, userId: number, currency: DisplayCurrency): Promise<Withdrawal[]> {
  const rows = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.userId, userId), eq(payouts.kind, 'withdrawal')))
    .orderBy(desc(payouts.id))
    .limit(200);
  return rows.map((r) => toWithdrawal(r, currency));
}

/** Whether the creator has a withdrawal on its way (read without a lock: the unique index decides). */
export async function withdrawalInFlight(db: Db, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: payouts.id })
    .from(payouts)
    // needs_review too (issue 30): the provider may have paid it, so it is still on its way.
    .where(and(eq(payouts.userId, userId), eq(payouts.kind, 'withdrawal'), inArray(payouts.status, ['processing', 'needs_review'])))
    .limit(1);
  return Boolean(row);
}

export const withdrawalMessages = {
  belowMin: (min: number) => `The smallest withdrawal is €${minorToAmount(min).toFixed(2)}.`,
  aboveAvailable: (available: number) => `You can withdraw at most €${minorToAmount(available).toFixed(2)}, your available earnings.`,
  aboveMax: 'A withdrawal may be at most €1000000.00.',
  inFlight: 'A withdrawal is already on its way: you can ask for the next one once it is paid or has failed.',
  owesRefunds: (owed: number) =>
    `You owe €${minorToAmount(owed).toFixed(2)} from refunds of works you had already been paid for: you can withdraw again once your sales have covered it.`,
};
