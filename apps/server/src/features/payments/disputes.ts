import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deposits, disputes, users } from '../../db/schema';
import { forfeitDisputeHold, holdDisputedPayment, refundDeposit, releaseDisputeHold } from '../ledger';
import { notify } from '../notifications';
import { nextDisputeStatus } from './dispute-states';
import type { PaymentEvent } from './provider';

type DisputeOutcome = Extract<PaymentEvent['outcome'], 'dispute_opened' | 'dispute_won' | 'dispute_lost' | 'refunded'>;
export type ChargebackEvent = PaymentEvent & { outcome: DisputeOutcome };

export const isChargebackEvent = (event: PaymentEvent): event is ChargebackEvent =>
  event.outcome === 'dispute_opened' || event.outcome === 'dispute_won' || event.outcome === 'dispute_lost' || event.outcome === 'refunded';

/**
 * The credited deposit an event names, locked (FOR UPDATE): by its id when the event carries one,
 * else by the provider's payment id. Lock order (features/ledger): the deposit, then the dispute, then
 * the user row, then the accounts.
 */
async function lockDepositOf(tx: Db, provider: string, event: PaymentEvent) {
  const names = event.depositId
    ? eq(deposits.id, event.depositId)
    : event.paymentRef
      ? or(eq(deposits.providerPaymentRef, event.paymentRef), eq(deposits.providerRef, event.paymentRef))
      : null;
  if (!names) return null;
  const [row] = await tx
    .select()
    .from(deposits)
    .where(and(names, eq(deposits.provider, provider), eq(deposits.status, 'success')))
    .limit(1)
    .for('update');
  return row ?? null;
}

/** Every staff member hears of a new dispute (bell and live event), in the transaction that opened it. */
async function notifyStaff(tx: Db, dispute: { id: number; amountMinor: number; userId: number }) {
  const staff = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.deletedAt)))
    .limit(200);
  const euros = (dispute.amountMinor / 100).toFixed(2);
  const text =
    dispute.amountMinor > 0
      ? `A card payment of ${euros} EUR by user #${dispute.userId} is disputed (dispute #${dispute.id}).`
      : `A card payment by user #${dispute.userId} is disputed again (dispute #${dispute.id}); its other disputes hold all of it already, so nothing more is held.`;
  for (const s of staff) {
    await notify(tx, {
      userId: s.id,
      kind: 'dispute_opened',
      text,
      link: '/admin/money',
      data: { disputeId: dispute.id, userId: dispute.userId },
    });
  }
}

/**
 * What a dispute holds, in EUR cents (issue 29): the amount the provider's event disputes, converted
 * as the payment was (the deposit's EUR amount per unit of what was paid; a part rounds up, as a
 * shortfall does), never more than the payment, and never more than what of it the payment's other
 * disputes (open, or lost and gone) do not hold already: a second dispute id for the same payment
 * never holds the same money twice. An event without an amount, or in another currency than the
 * payment's, disputes the whole payment.
 */
export function disputeHoldMinor(
  deposit: { amountMinor: number; currency: string; currencyAmountMinor: number },
  disputed: { amountMinor?: number; currency?: string } | undefined,
  heldByOthersMinor: number,
): number {
  const paid = Number(deposit.amountMinor);
  const charged = Number(deposit.currencyAmountMinor);
  const sameCurrency = !disputed?.currency || disputed.currency.toUpperCase() === deposit.currency.toUpperCase();
  let wanted = paid;
  if (disputed?.amountMinor !== undefined && sameCurrency && charged > 0) {
    const exact = BigInt(paid) * BigInt(disputed.amountMinor);
    wanted = Number((exact + BigInt(charged) - 1n) / BigInt(charged));
  }
  const room = Math.max(0, paid - heldByOthersMinor);
  return Math.max(0, Math.min(wanted, paid, room));
}

/**
 * Applies a verified dispute or refund event in the webhook's transaction (its event id is stored
 * already). A dispute is keyed by the provider's dispute id, its ledger moves by the dispute's id, and
 * a refund by the deposit's id, so a replay or a second event for the same thing changes nothing.
 */
export async function applyChargebackEvent(tx: Db, provider: string, event: ChargebackEvent): Promise<'applied' | 'ignored'> {
  const deposit = await lockDepositOf(tx, provider, event);
  if (!deposit) return 'ignored';
  const amountMinor = Number(deposit.amountMinor);

  if (event.outcome === 'refunded') {
    // The provider cannot refund a disputed payment: a dispute, open or decided, has taken it already.
    const [disputed] = await tx
      .select({ id: disputes.id })
      .from(disputes)
      .where(and(eq(disputes.depositId, deposit.id), ne(disputes.status, 'won')))
      .limit(1);
    if (deposit.refundedAt || disputed) return 'ignored';
    await tx.update(deposits).set({ refundedAt: new Date(), updatedAt: new Date() }).where(eq(deposits.id, deposit.id));
    await refundDeposit(tx, { depositId: deposit.id, userId: deposit.userId, provider, amountMinor });
    return 'applied';
  }

  const providerDisputeId = event.dispute?.id;
  if (!providerDisputeId) return 'ignored';
  const [existing] = await tx
    .select()
    .from(disputes)
    .where(and(eq(disputes.provider, provider), eq(disputes.providerDisputeId, providerDisputeId)))
    .for('update');

  if (event.outcome === 'dispute_opened') {
    // A refunded payment cannot be disputed for money we still hold.
    if (existing || deposit.refundedAt || !nextDisputeStatus(null, 'opened')) return 'ignored';
    // The payment's other disputes are read under the deposit's lock, so two dispute ids for one
    // payment arriving at once are weighed one after the other.
    const [others] = await tx
      .select({ held: sql<string>`coalesce(sum(${disputes.amountMinor}), 0)` })
      .from(disputes)
      .where(and(eq(disputes.depositId, deposit.id), inArray(disputes.status, ['open', 'lost'])));
    const holdMinor = disputeHoldMinor(
      { amountMinor, currency: deposit.currency, currencyAmountMinor: Number(deposit.currencyAmountMinor) },
      event.dispute,
      Number(others?.held ?? 0),
    );
    // The split (balance first, then receivable) is decided under the account locks; the row is
    // written first with the whole amount from the balance, then corrected in the same transaction.
    const [row] = await tx
      .insert(disputes)
      .values({
        provider,
        providerDisputeId,
        depositId: deposit.id,
        userId: deposit.userId,
        status: 'open',
        reason: event.dispute?.reason?.slice(0, 100) ?? null,
        amountMinor: holdMinor,
        disputedMinor: event.dispute?.amountMinor ?? null,
        disputedCurrency: event.dispute?.amountMinor !== undefined ? (event.dispute.currency ?? deposit.currency).toUpperCase().slice(0, 3) : null,
        fromBalanceMinor: holdMinor,
        fromReceivableMinor: 0,
      })
      .returning({ id: disputes.id });
    const disputeId = row!.id;
    await tx
      .update(users)
      .set({ disputedAt: new Date() })
      .where(and(eq(users.id, deposit.userId), isNull(users.disputedAt)));
    // Nothing left to hold (the payment's other disputes hold all of it): the dispute is recorded, no money moves.
    if (holdMinor > 0) {
      const split = await holdDisputedPayment(tx, { disputeId, userId: deposit.userId, amountMinor: holdMinor });
      await tx
        .update(disputes)
        .set({ fromBalanceMinor: split.fromBalanceMinor, fromReceivableMinor: split.fromReceivableMinor })
        .where(eq(disputes.id, disputeId));
    }
    await notifyStaff(tx, { id: disputeId, amountMinor: holdMinor, userId: deposit.userId });
    return 'applied';
  }

  if (!existing) return 'ignored';
  const to = nextDisputeStatus(existing.status, event.outcome === 'dispute_won' ? 'won' : 'lost');
  if (!to) return 'ignored';
  await tx.update(disputes).set({ status: to, closedAt: new Date() }).where(eq(disputes.id, existing.id));
  if (Number(existing.amountMinor) === 0) return 'applied';
  if (to === 'won') {
    await releaseDisputeHold(tx, {
      disputeId: existing.id,
      userId: existing.userId,
      fromBalanceMinor: Number(existing.fromBalanceMinor),
      fromReceivableMinor: Number(existing.fromReceivableMinor),
    });
  } else {
    await forfeitDisputeHold(tx, { disputeId: existing.id, provider, amountMinor: Number(existing.amountMinor) });
  }
  return 'applied';
}
