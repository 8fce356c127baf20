import { sql } from 'drizzle-orm';
import { asDb, type Db, rowsOf } from '../../db/client';
import {
  clearingAccountCode,
  earningsAvailableCode,
  earningsHeldCode,
  earningsPendingCode,
  existingAccountId,
  receivableCode,
  systemAccountId,
  transfer,
  WITHDRAWALS_IN_FLIGHT,
} from './ledger';
import { hasOpenRefundRequest, lockSaleLines, openRefundRequestOn, type SaleLineRef, type SaleLineType, saleLineOf, setSaleLine } from './sale-lines';

/**
 * The ledger's writers for a creator's earnings (the rules of who and when live in features/earnings
 * and features/payouts; the journal entries are built here):
 *   sale           buyer → earnings:pending:<creator>          (postSale; at once to available when the clearing period is 0)
 *   release        earnings:pending → earnings:available        once per sold line, its own amount, key earnings-release:<line type>:<id>
 *   withdrawal     earnings:available → withdrawals:in-flight    with the payout row, key withdrawal:<payout id>
 *   paid           withdrawals:in-flight → clearing:payout-<provider>   key withdrawal-paid:<payout id>
 *   failed         withdrawals:in-flight → earnings:available    key withdrawal-returned:<payout id>
 * A refund (refund.ts) takes the creator's share from pending, then available, then receivable:<creator>.
 */

type DueLine = { line_type: SaleLineType; line_id: string | number };

/** Sold lines still pending whose clearing period has passed (as of `now`) and on which no refund request is open, oldest first. */
async function dueLines(db: Db, clearingDays: number, now: Date, limit: number): Promise<DueLine[]> {
  const cutoff = new Date(now.getTime() - clearingDays * 86_400_000);
  return rowsOf<DueLine>(
    await db.execute(sql`
    select l.line_type, l.line_id from sale_lines l
    where l.earnings_state = 'pending' and l.sold_at <= ${cutoff.toISOString()}::timestamptz and not ${openRefundRequestOn}
    order by l.sold_at, l.line_id
    limit ${limit}`),
  );
}

/**
 * Releases one sold line: its own amount (less what already paid its seller's debt) from pending to
 * available, and the line becomes released, in one transaction after the line is locked (domain rows
 * first). A line no longer pending, or with a refund request opened meanwhile, is left as it is.
 */
async function releaseLine(db: Db, due: DueLine): Promise<number> {
  return db.transaction(async (txRaw) => {
    const tx = asDb(txRaw);
    const ref: SaleLineRef = { type: due.line_type, id: Number(due.line_id) };
    const line = saleLineOf(await lockSaleLines(tx, [ref]), ref);
    if (line?.state !== 'pending' || (await hasOpenRefundRequest(tx, ref))) return 0;
    const amount = line.sellerMinor - line.settledMinor;
    if (amount > 0) {
      const pending = await systemAccountId(tx, earningsPendingCode(line.sellerId));
      const available = await systemAccountId(tx, earningsAvailableCode(line.sellerId));
      await transfer(tx, {
        lines: [
          { accountId: pending, amountMinor: -amount },
          { accountId: available, amountMinor: amount },
        ],
        kind: 'earnings_release',
        subject: ref,
        reason: `earnings release of ${ref.type} ${ref.id}`,
        idempotency: `earnings-release:${ref.type}:${ref.id}`,
      });
    }
    await setSaleLine(tx, ref, { state: 'released' });
    return amount;
  });
}

/** The `earnings.release` job's work: every due line, in batches; returns how many lines it released. */
export async function releaseDueEarnings(db: Db, opts: { clearingDays: number; now?: Date; batch?: number }): Promise<number> {
  const now = opts.now ?? new Date();
  const batch = opts.batch ?? 200;
  let released = 0;
  for (;;) {
    const lines = await dueLines(db, opts.clearingDays, now, batch);
    for (const line of lines) {
      await releaseLine(db, line);
      released++;
    }
    if (lines.length < batch) return released;
  }
}

/** A creator's earnings in EUR cents, and when the oldest pending line is released (null: nothing pending). */
export async function earningsOf(
  db: Db,
  userId: number,
  clearingDays: number,
): Promise<{ pending: number; available: number; held: number; owed: number; withdrawn: number; lifetime: number; nextReleaseAt: Date | null }> {
  const pendingCode = earningsPendingCode(userId);
  const availableCode = earningsAvailableCode(userId);
  const heldCode = earningsHeldCode(userId);
  const owedCode = receivableCode(userId);
  const [row] = rowsOf<{ pending: string; available: string; held: string; owed: string; withdrawn: string; lifetime: string; oldest: string | Date | null }>(
    await db.execute(sql`
    with acc as (select id, code, balance_minor from ledger_accounts where code in (${pendingCode}, ${availableCode})),
    other as (select code, balance_minor from ledger_accounts where code in (${heldCode}, ${owedCode}))
    select
      coalesce((select balance_minor from other where code = ${heldCode}), 0) as held,
      greatest(0, -coalesce((select balance_minor from other where code = ${owedCode}), 0)) as owed,
      coalesce((select balance_minor from acc where code = ${pendingCode}), 0) as pending,
      coalesce((select balance_minor from acc where code = ${availableCode}), 0) as available,
      (select coalesce(sum(amount_minor), 0) from payouts where user_id = ${userId} and kind = 'withdrawal' and status in ('processing', 'needs_review', 'paid')) as withdrawn,
      (select coalesce(sum(e.amount_minor), 0) from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
        where e.account_id in (select id from acc) and e.amount_minor > 0
          and t.kind not in ('earnings_release', 'withdrawal_return')) as lifetime,
      (select min(l.sold_at) from sale_lines l where l.seller_id = ${userId} and l.earnings_state = 'pending') as oldest`),
  );
  const oldest = row?.oldest ? new Date(row.oldest) : null;
  return {
    pending: Number(row?.pending ?? 0),
    available: Number(row?.available ?? 0),
    held: Number(row?.held ?? 0),
    owed: Number(row?.owed ?? 0),
    withdrawn: Number(row?.withdrawn ?? 0),
    lifetime: Number(row?.lifetime ?? 0),
    nextReleaseAt: oldest ? new Date(oldest.getTime() + clearingDays * 86_400_000) : null,
  };
}

/**
 * Holds a withdrawal's amount: available → withdrawals:in-flight, in the transaction that writes the
 * payout row (after it: domain rows first), so the same money cannot be spent or withdrawn twice.
 * Throws InsufficientFunds when available earnings are short.
 */
export async function holdWithdrawal(tx: Db, opts: { userId: number; payoutId: number; amountMinor: number }): Promise<void> {
  const available = await systemAccountId(tx, earningsAvailableCode(opts.userId));
  const inFlight = await systemAccountId(tx, WITHDRAWALS_IN_FLIGHT);
  await transfer(tx, {
    lines: [
      { accountId: available, amountMinor: -opts.amountMinor },
      { accountId: inFlight, amountMinor: opts.amountMinor },
    ],
    kind: 'withdrawal',
    subject: { type: 'payout', id: opts.payoutId },
    reason: `withdrawal ${opts.payoutId}`,
    idempotency: `withdrawal:${opts.payoutId}`,
  });
}

/** A withdrawal was paid: the money leaves through the payout provider's clearing account, once. */
export async function payWithdrawal(tx: Db, payout: { id: number; amountMinor: number; provider: string }): Promise<void> {
  const inFlight = await systemAccountId(tx, WITHDRAWALS_IN_FLIGHT);
  const clearing = await systemAccountId(tx, clearingAccountCode(`payout-${payout.provider}`));
  await transfer(tx, {
    lines: [
      { accountId: inFlight, amountMinor: -payout.amountMinor },
      { accountId: clearing, amountMinor: payout.amountMinor },
    ],
    kind: 'payout',
    subject: { type: 'payout', id: payout.id },
    reason: `withdrawal ${payout.id} paid`,
    idempotency: `withdrawal-paid:${payout.id}`,
  });
}

/** A withdrawal failed: the money goes back to the creator's available earnings, once. */
export async function returnWithdrawal(tx: Db, payout: { id: number; userId: number; amountMinor: number }): Promise<void> {
  const inFlight = await systemAccountId(tx, WITHDRAWALS_IN_FLIGHT);
  const available = await systemAccountId(tx, earningsAvailableCode(payout.userId));
  await transfer(tx, {
    lines: [
      { accountId: inFlight, amountMinor: -payout.amountMinor },
      { accountId: available, amountMinor: payout.amountMinor },
    ],
    kind: 'withdrawal_return',
    subject: { type: 'payout', id: payout.id },
    reason: `withdrawal ${payout.id} returned`,
    idempotency: `withdrawal-returned:${payout.id}`,
  });
}

/** The creator's available earnings in EUR cents (0 without an account). */
export async function availableEarningsOf(db: Db, userId: number): Promise<number> {
  const id = await existingAccountId(db, earningsAvailableCode(userId));
  if (id === null) return 0;
  const [row] = rowsOf<{ balance_minor: string }>(await db.execute(sql`select balance_minor from ledger_accounts where id = ${id}`));
  return Number(row?.balance_minor ?? 0);
}

/** A user's receivable account (code `receivable:<id>`, may go below zero), created on first use. */
export function receivableAccountId(db: Db, userId: number): Promise<number> {
  return systemAccountId(db, receivableCode(userId));
}
