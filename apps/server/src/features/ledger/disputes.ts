import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerAccounts } from '../../db/schema';
import { receivableAccountId } from './earnings';
import { clearingAccountCode, DISPUTES_HOLD, type JournalFacts, lockAccounts, systemAccountId, transfer, userAccountId } from './ledger';

/**
 * The ledger's writers for a card payment's dispute (chargeback); the rules of when live in
 * features/payments (disputes.ts, dispute-states.ts). Each is one journal transaction, keyed by the
 * dispute's id, so a replayed provider event moves nothing twice:
 *   opened   balance (as far as it goes) + receivable (the rest, may go below zero) → disputes:hold   key dispute-opened:<id>
 *   won      disputes:hold → receivable (what it gave, as far as still owed) + balance (the rest)   key dispute-won:<id>
 *   lost     disputes:hold → clearing:<provider> (the money leaves as it came)                       key dispute-lost:<id>
 *   refunded balance (as far as it goes) + receivable → clearing:<provider>                         key deposit-refunded:<deposit id>
 * The caller has locked its domain rows (the deposit, the dispute) first; the accounts are locked
 * here, last, in id order.
 */

export type DisputeSplit = { fromBalanceMinor: number; fromReceivableMinor: number };

/** Takes `amountMinor` from the user's balance as far as it goes and the rest from their receivable, into `toCode`. */
async function takeFromUser(
  tx: Db,
  opts: JournalFacts & { userId: number; amountMinor: number; toCode: string; idempotency: string },
): Promise<DisputeSplit & { transactionId: number }> {
  const balance = await userAccountId(tx, opts.userId);
  const receivable = await receivableAccountId(tx, opts.userId);
  const to = await systemAccountId(tx, opts.toCode);
  await lockAccounts(tx, [balance, receivable, to]);
  // Read under the lock: what the balance no longer holds was spent, and becomes a debt.
  const [row] = await tx.select({ balance: ledgerAccounts.balanceMinor }).from(ledgerAccounts).where(eq(ledgerAccounts.id, balance));
  const fromBalanceMinor = Math.max(0, Math.min(Number(row?.balance ?? 0), opts.amountMinor));
  const fromReceivableMinor = opts.amountMinor - fromBalanceMinor;
  const { transactionId } = await transfer(tx, {
    lines: [
      { accountId: balance, amountMinor: -fromBalanceMinor },
      { accountId: receivable, amountMinor: -fromReceivableMinor },
      { accountId: to, amountMinor: opts.amountMinor },
    ],
    kind: opts.kind,
    subject: opts.subject,
    reason: opts.reason,
    idempotency: opts.idempotency,
  });
  return { transactionId, fromBalanceMinor, fromReceivableMinor };
}

/** A dispute opened: the deposit's amount goes to the hold, from the balance and then the receivable. */
export function holdDisputedPayment(tx: Db, opts: { disputeId: number; userId: number; amountMinor: number }) {
  return takeFromUser(tx, {
    userId: opts.userId,
    amountMinor: opts.amountMinor,
    toCode: DISPUTES_HOLD,
    kind: 'chargeback_hold',
    subject: { type: 'dispute', id: opts.disputeId },
    reason: 'dispute opened',
    idempotency: `dispute-opened:${opts.disputeId}`,
  });
}

/**
 * A dispute won: the hold goes back. The receivable gets back what it gave, as far as it is still owed
 * (a debt paid off meanwhile is not owed twice); the rest goes to the balance.
 */
export async function releaseDisputeHold(tx: Db, opts: { disputeId: number; userId: number } & DisputeSplit): Promise<number> {
  const hold = await systemAccountId(tx, DISPUTES_HOLD);
  const balance = await userAccountId(tx, opts.userId);
  const receivable = await receivableAccountId(tx, opts.userId);
  await lockAccounts(tx, [hold, balance, receivable]);
  const [row] = await tx.select({ balance: ledgerAccounts.balanceMinor }).from(ledgerAccounts).where(eq(ledgerAccounts.id, receivable));
  const owed = Math.max(0, -Number(row?.balance ?? 0));
  const total = opts.fromBalanceMinor + opts.fromReceivableMinor;
  const toReceivable = Math.min(opts.fromReceivableMinor, owed);
  const { transactionId } = await transfer(tx, {
    lines: [
      { accountId: hold, amountMinor: -total },
      { accountId: balance, amountMinor: total - toReceivable },
      { accountId: receivable, amountMinor: toReceivable },
    ],
    kind: 'chargeback_release',
    subject: { type: 'dispute', id: opts.disputeId },
    reason: 'dispute won',
    idempotency: `dispute-won:${opts.disputeId}`,
  });
  return transactionId;
}

/** A dispute lost: the held money leaves through the provider's clearing account, as it came in. */
export async function forfeitDisputeHold(tx: Db, opts: { disputeId: number; provider: string; amountMinor: number }): Promise<number> {
  const hold = await systemAccountId(tx, DISPUTES_HOLD);
  const clearing = await systemAccountId(tx, clearingAccountCode(opts.provider));
  await lockAccounts(tx, [hold, clearing]);
  const { transactionId } = await transfer(tx, {
    lines: [
      { accountId: hold, amountMinor: -opts.amountMinor },
      { accountId: clearing, amountMinor: opts.amountMinor },
    ],
    kind: 'chargeback_loss',
    subject: { type: 'dispute', id: opts.disputeId },
    reason: 'dispute lost',
    idempotency: `dispute-lost:${opts.disputeId}`,
  });
  return transactionId;
}

/** A deposit refunded by the provider: its amount leaves through the clearing, from the balance and then the receivable. */
export function refundDeposit(tx: Db, opts: { depositId: number; userId: number; provider: string; amountMinor: number }) {
  return takeFromUser(tx, {
    userId: opts.userId,
    amountMinor: opts.amountMinor,
    toCode: clearingAccountCode(opts.provider),
    kind: 'deposit_refund',
    subject: { type: 'deposit', id: opts.depositId },
    reason: 'deposit refunded',
    idempotency: `deposit-refunded:${opts.depositId}`,
  });
}
