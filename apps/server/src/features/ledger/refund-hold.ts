import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { earningsAvailableCode, earningsHeldCode, lockAccounts, systemAccountId, transfer } from './ledger';
import { lockSaleLines, type SaleLineRef, saleLineOf, setSaleLine } from './sale-lines';

/**
 * Earnings under an open refund request (issue 30, finding 1). A pending line is not released while the
 * request is open (the release job skips it). A released line's share moves from the creator's available
 * earnings to their held account, as far as available goes, so it can be neither withdrawn nor spent:
 *   hold     earnings:available → earnings:held    key earnings-hold:<request id>     line released → held
 *   unhold   earnings:held → earnings:available    key earnings-unhold:<request id>   line held → released (the request was rejected)
 * A refund of a held line takes the share from the held account first (refund.ts).
 * The caller has locked the refund request; the line is locked here, then the accounts.
 */
export async function holdForRefundRequest(tx: Db, opts: { line: SaleLineRef; requestId: number }): Promise<number> {
  const line = saleLineOf(await lockSaleLines(tx, [opts.line]), opts.line);
  if (line?.state !== 'released' || line.sellerMinor <= 0) return 0;
  const available = await systemAccountId(tx, earningsAvailableCode(line.sellerId));
  const held = await systemAccountId(tx, earningsHeldCode(line.sellerId));
  await lockAccounts(tx, [available, held]);
  const [row] = rowsOf<{ balance_minor: string | number }>(await tx.execute(sql`select balance_minor from ledger_accounts where id = ${available}`));
  const amount = Math.max(0, Math.min(line.sellerMinor, Number(row?.balance_minor ?? 0)));
  if (amount > 0) {
    await transfer(tx, {
      lines: [
        { accountId: available, amountMinor: -amount },
        { accountId: held, amountMinor: amount },
      ],
      kind: 'earnings_hold',
      subject: opts.line,
      reason: `earnings held for refund request ${opts.requestId}`,
      idempotency: `earnings-hold:${opts.requestId}`,
    });
  }
  await setSaleLine(tx, opts.line, { state: 'held', heldMinor: amount });
  return amount;
}

/** The request ended without a refund: what was held goes back to available, and the line is released again. */
export async function releaseRefundHold(tx: Db, opts: { line: SaleLineRef; requestId: number }): Promise<number> {
  const line = saleLineOf(await lockSaleLines(tx, [opts.line]), opts.line);
  if (line?.state !== 'held') return 0;
  if (line.heldMinor > 0) {
    const available = await systemAccountId(tx, earningsAvailableCode(line.sellerId));
    const held = await systemAccountId(tx, earningsHeldCode(line.sellerId));
    await transfer(tx, {
      lines: [
        { accountId: held, amountMinor: -line.heldMinor },
        { accountId: available, amountMinor: line.heldMinor },
      ],
      kind: 'earnings_unhold',
      subject: opts.line,
      reason: `earnings hold of refund request ${opts.requestId} released`,
      idempotency: `earnings-unhold:${opts.requestId}`,
    });
  }
  await setSaleLine(tx, opts.line, { state: 'released', heldMinor: 0 });
  return line.heldMinor;
}
