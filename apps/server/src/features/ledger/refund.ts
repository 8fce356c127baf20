import { sql } from 'drizzle-orm';
import { asDb, type Db, rowsOf } from '../../db/client';
import {
  accountIds,
  earningsAvailableCode,
  earningsHeldCode,
  earningsPendingCode,
  existingAccountId,
  lockAccounts,
  receivableCode,
  systemAccountId,
  type TransferLine,
  transfer,
  userAccountId,
} from './ledger';
import { vatPayableCode } from './sale';
import { lockSaleLines, type SaleLineRef, type SaleLineType, saleLineOf, setSaleLine } from './sale-lines';

/**
 * The ledger's writers for buyer protection (the rules of who may ask and who decides live in
 * features/refunds; the journal entries are built here):
 *   refund       revenue (the sale's shard) → buyer          the commission
 *                vat:payable:<country> → buyer               the VAT the line's sale stored (issue 33)
 *                earnings:pending → buyer, then earnings:available, then receivable:<creator>   the creator's share
 *                one transaction, key refund:<request id>
 *   settle       earnings:pending, then earnings:available → receivable:<creator>   until it is back at zero
 * A receivable below zero is money the creator owes: they cannot withdraw until sales cover it.
 */

/**
 * The revenue account a sale credited its commission to (the buyer's shard, see REVENUE_SHARDS), read
 * from the sale's journal entries, so a refund takes the commission back from where it went; null when
 * the sale credited no revenue.
 */
export async function saleRevenueAccountOf(db: Db, saleTransactionId: number): Promise<number | null> {
  const [row] = rowsOf<{ account_id: string | number }>(
    await db.execute(sql`
      select e.account_id from ledger_entries e join ledger_accounts a on a.id = e.account_id
      where e.transaction_id = ${saleTransactionId} and e.amount_minor > 0 and a.kind = 'platform_revenue'
      order by e.id limit 1`),
  );
  return row ? Number(row.account_id) : null;
}

async function balancesOf(tx: Db, ids: number[]): Promise<Map<number, number>> {
  const rows = rowsOf<{ id: string | number; balance_minor: string | number }>(
    await tx.execute(sql`select id, balance_minor from ledger_accounts where id = any(${sql.param(ids)}::bigint[])`),
  );
  return new Map(rows.map((r) => [Number(r.id), Number(r.balance_minor)]));
}

/**
 * Refunds one sold line in the caller's transaction, after the caller locked its domain rows: the line
 * is locked next (lockSaleLines), then the accounts, in id order, before the balances are read. The
 * buyer's balance gets `amountMinor` (what they paid, EUR cents); the commission comes back from the
 * revenue account the sale credited; the creator's share (`creatorMinor`, the line's stored split) from
 * where the line's own earnings are: a pending line gives back what it still holds in pending; a held
 * line what is held for it; anything else (released, or the part that paid a debt) comes from available
 * earnings, then the receivable (which may go below zero). Another sale's pending money is never taken.
 * The line becomes refunded. Returns the journal transaction id and where the share came from.
 */
export async function postRefund(
  tx: Db,
  opts: {
    buyerId: number;
    sellerId: number;
    amountMinor: number;
    creatorMinor: number;
    revenueAccountId: number | null;
    /** The sold line refunded. */
    line: SaleLineRef;
    /** The refund request this refund settles (the journal transaction's subject). */
    requestId: number;
    /** The VAT the line's sale stored and the country it is owed to: given back from `vat:payable:<country>`. */
    vat?: { country: string; amountMinor: number };
    reason: string;
    idempotency: string;
  },
): Promise<{ transactionId: number | null; fromPending: number; fromHeld: number; fromAvailable: number; fromReceivable: number }> {
  const line = saleLineOf(await lockSaleLines(tx, [opts.line]), opts.line);
  if (opts.amountMinor <= 0) {
    if (line) await setSaleLine(tx, opts.line, { state: 'refunded' });
    return { transactionId: null, fromPending: 0, fromHeld: 0, fromAvailable: 0, fromReceivable: 0 };
  }
  const vatMinor = opts.vat?.amountMinor ?? 0;
  const vatCode = vatMinor > 0 ? vatPayableCode(opts.vat!.country) : null;
  const commission = opts.amountMinor - opts.creatorMinor - vatMinor;
  const accounts = await accountIds(tx, {
    userIds: [opts.buyerId],
    codes: [
      ...(opts.creatorMinor > 0
        ? [earningsPendingCode(opts.sellerId), earningsHeldCode(opts.sellerId), earningsAvailableCode(opts.sellerId), receivableCode(opts.sellerId)]
        : []),
      ...(vatCode ? [vatCode] : []),
    ],
  });
  const vatAccount = vatCode ? accounts.byCode.get(vatCode)! : null;
  const buyer = accounts.byUser.get(opts.buyerId)!;
  const revenue = commission > 0 ? (opts.revenueAccountId ?? (await systemAccountId(tx, 'platform:revenue'))) : null;
  const pending = accounts.byCode.get(earningsPendingCode(opts.sellerId));
  const held = accounts.byCode.get(earningsHeldCode(opts.sellerId));
  const available = accounts.byCode.get(earningsAvailableCode(opts.sellerId));
  const receivable = accounts.byCode.get(receivableCode(opts.sellerId));
  const ids = [buyer, revenue, pending, held, available, receivable, vatAccount].filter((id): id is number => typeof id === 'number');
  await lockAccounts(tx, ids);
  let fromPending = 0;
  let fromHeld = 0;
  let fromAvailable = 0;
  let fromReceivable = 0;
  const lines: TransferLine[] = [{ accountId: buyer, amountMinor: opts.amountMinor }];
  if (revenue !== null) lines.push({ accountId: revenue, amountMinor: -commission });
  if (vatAccount !== null) lines.push({ accountId: vatAccount, amountMinor: -vatMinor });
  if (opts.creatorMinor > 0 && pending && held && available && receivable) {
    const balances = await balancesOf(tx, [pending, held, available]);
    const own = line ? Math.max(0, Math.min(opts.creatorMinor, line.sellerMinor - line.settledMinor)) : 0;
    if (line?.state === 'pending') fromPending = Math.min(own, Math.max(0, balances.get(pending) ?? 0));
    if (line?.state === 'held') fromHeld = Math.min(opts.creatorMinor, line.heldMinor, Math.max(0, balances.get(held) ?? 0));
    fromAvailable = Math.min(opts.creatorMinor - fromPending - fromHeld, Math.max(0, balances.get(available) ?? 0));
    fromReceivable = opts.creatorMinor - fromPending - fromHeld - fromAvailable;
    lines.push(
      { accountId: pending, amountMinor: -fromPending },
      { accountId: held, amountMinor: -fromHeld },
      { accountId: available, amountMinor: -fromAvailable },
      { accountId: receivable, amountMinor: -fromReceivable },
    );
  }
  const done = await transfer(tx, {
    lines,
    kind: 'refund',
    subject: { type: 'refund_request', id: opts.requestId },
    reason: opts.reason,
    idempotency: opts.idempotency,
  });
  if (line) await setSaleLine(tx, opts.line, { state: 'refunded', heldMinor: 0 });
  return { transactionId: done.transactionId, fromPending, fromHeld, fromAvailable, fromReceivable };
}

/** What a creator owes (a receivable below zero), as a positive number of cents; 0 when nothing. */
export async function receivableOwedOf(db: Db, userId: number): Promise<number> {
  const id = await existingAccountId(db, receivableCode(userId));
  if (id === null) return 0;
  const balances = await balancesOf(db, [id]);
  return Math.max(0, -(balances.get(id) ?? 0));
}

/**
 * Pays a creator's receivable back from their earnings, pending first (the newest sales' lines, each
 * recording what of it paid the debt in `settled_minor`, so per-line amounts stay exact), then
 * available, in its own transaction; returns what it moved. Called after a sale commits and before a
 * withdrawal, so the next sale pays the receivable off first.
 */
export async function settleReceivable(db: Db, userId: number): Promise<number> {
  const receivable = await existingAccountId(db, receivableCode(userId));
  if (receivable === null) return 0;
  return db.transaction(async (txRaw) => {
    const tx = asDb(txRaw);
    // Domain rows first: the creator's pending lines that still hold money, newest first.
    const candidates = rowsOf<{ line_type: SaleLineType; line_id: string | number }>(
      await tx.execute(sql`
        select l.line_type, l.line_id from sale_lines l
        where l.seller_id = ${userId} and l.earnings_state = 'pending' and l.seller_minor > l.settled_minor
        order by l.sold_at desc, l.line_id desc limit 500`),
    ).map((r) => ({ type: r.line_type, id: Number(r.line_id) }));
    const locked = await lockSaleLines(tx, candidates);
    const pending = await existingAccountId(tx, earningsPendingCode(userId));
    const available = await existingAccountId(tx, earningsAvailableCode(userId));
    const ids = [receivable, pending, available].filter((id): id is number => id !== null);
    await lockAccounts(tx, ids);
    const balances = await balancesOf(tx, ids);
    const owed = Math.max(0, -(balances.get(receivable) ?? 0));
    if (owed === 0) return 0;
    let fromPending = 0;
    let pendingLeft = pending === null ? 0 : Math.max(0, balances.get(pending) ?? 0);
    for (const ref of candidates) {
      const line = saleLineOf(locked, ref);
      if (line?.state !== 'pending') continue;
      const take = Math.min(owed - fromPending, line.sellerMinor - line.settledMinor, pendingLeft);
      if (take <= 0) continue;
      await setSaleLine(tx, ref, { settledMinor: line.settledMinor + take });
      fromPending += take;
      pendingLeft -= take;
    }
    const fromAvailable = available === null ? 0 : Math.min(owed - fromPending, Math.max(0, balances.get(available) ?? 0));
    if (fromPending + fromAvailable === 0) return 0;
    const lines: TransferLine[] = [{ accountId: receivable, amountMinor: fromPending + fromAvailable }];
    if (pending !== null) lines.push({ accountId: pending, amountMinor: -fromPending });
    if (available !== null) lines.push({ accountId: available, amountMinor: -fromAvailable });
    await transfer(tx, { lines, kind: 'receivable_settlement', subject: { type: 'user', id: userId }, reason: `receivable ${userId} settled from earnings` });
    return fromPending + fromAvailable;
  });
}

/**
 * After a sale commits: each of these sellers who owes a receivable pays it back from the sale's
 * earnings first (settleReceivable). One query when nobody owes anything.
 */
export async function settleReceivablesOf(db: Db, sellerIds: number[]): Promise<void> {
  const ids = [...new Set(sellerIds)];
  if (!ids.length) return;
  const rows = rowsOf<{ owner_id: string | number }>(
    await db.execute(sql`select owner_id from ledger_accounts where kind = 'receivable' and balance_minor < 0 and owner_id = any(${sql.param(ids)}::bigint[])`),
  );
  for (const r of rows) await settleReceivable(db, Number(r.owner_id));
}

/**
 * After an order: its sellers who owe refunds pay them back from this sale first. One query finds
 * them (usually none), so a purchase pays one round trip for the rule.
 */
export async function settleReceivablesOfOrder(db: Db, orderId: number): Promise<void> {
  const rows = rowsOf<{ owner_id: string | number }>(
    await db.execute(
      sql`select owner_id from ledger_accounts where kind = 'receivable' and balance_minor < 0
          and owner_id in (select seller_id from order_items where order_id = ${orderId})`,
    ),
  );
  for (const r of rows) await settleReceivable(db, Number(r.owner_id));
}

/** Every creator who owes a receivable pays it back from what they have earned since (the release job's sweep, for sales paid by card webhooks). */
export async function settleAllReceivables(db: Db): Promise<number> {
  const rows = rowsOf<{ owner_id: string | number }>(
    await db.execute(sql`select owner_id from ledger_accounts where kind = 'receivable' and balance_minor < 0 order by owner_id limit 1000`),
  );
  let moved = 0;
  for (const r of rows) moved += await settleReceivable(db, Number(r.owner_id));
  return moved;
}

/**
 * A user who owes (a receivable below zero: a chargeback of money already spent, or refunds) pays it
 * from their next deposit first, in the deposit's transaction, after its credit: balance → receivable,
 * at most the deposit's amount, once per deposit. The caller locked both accounts with the deposit's.
 */
export async function payDebtFromDeposit(tx: Db, opts: { userId: number; depositId: number; amountMinor: number }): Promise<number> {
  const receivable = await existingAccountId(tx, receivableCode(opts.userId));
  if (receivable === null) return 0;
  const balance = await userAccountId(tx, opts.userId);
  await lockAccounts(tx, [balance, receivable]);
  const balances = await balancesOf(tx, [balance, receivable]);
  const owed = Math.max(0, -(balances.get(receivable) ?? 0));
  const take = Math.min(owed, opts.amountMinor, Math.max(0, balances.get(balance) ?? 0));
  if (take <= 0) return 0;
  await transfer(tx, {
    lines: [
      { accountId: balance, amountMinor: -take },
      { accountId: receivable, amountMinor: take },
    ],
    kind: 'receivable_settlement',
    subject: { type: 'deposit', id: opts.depositId },
    reason: `debt of user ${opts.userId} paid from deposit ${opts.depositId}`,
    idempotency: `debt-from-deposit:${opts.depositId}`,
  });
  return take;
}
