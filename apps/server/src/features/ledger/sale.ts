import { eq, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { type PrebuiltValue, prebuilt } from '../../db/prebuilt';
import { type LedgerSubjectType, ledgerTransactions } from '../../db/schema';
import { commissionOf } from './commerce-settings';
import {
  accountIds,
  chargeCtes,
  chargeEntriesOrRefuse,
  chargeLines,
  EARNINGS_AVAILABLE_PREFIX,
  EARNINGS_PENDING_PREFIX,
  earningsAvailableCode,
  earningsPendingCode,
  InsufficientFunds,
  type KnownAccounts,
  refusalOf,
  salesRevenueCode,
  type TransferLine,
} from './ledger';

/**
 * THE writer of a sale (a purchase from the balance, a chat image unlock, a pack): the buyer pays the
 * sum of the shares; each share goes to its seller's PENDING EARNINGS less the platform's commission,
 * which goes to the platform's revenue (the buyer's revenue shard, see REVENUE_SHARDS); a
 * platform-owned share goes to revenue in full. The `earnings.release` job later moves each credit to
 * the seller's available earnings (features/earnings).
 *
 * The buyer pays from their balance first and, for what the balance does not cover, from their
 * available earnings (the split is made under the accounts' locks, inside the statement: `spill` in
 * chargeCtes). So a creator spends what they earned like a balance, while a deposit (balance) can
 * never become withdrawable earnings. Features say what is sold and for how much (the rules); the ledger alone turns that
 * into journal entries, in one statement that locks the accounts in id order, checks the buyer's
 * balance and writes the entries, or refuses with InsufficientFunds (the buyer is the only account a
 * sale takes money from), undoing everything the statement wrote.
 */

/**
 * One seller's part of a sale, in EUR cents: what the buyer pays for it, of which `vatMinor` is VAT
 * (issue 33: carved out by features/tax, owed to `vat:payable:<Sale.vatCountry>`); the commission and
 * the seller's share are taken from the rest, the net.
 */
export type SaleShare = {
  sellerId: number;
  amountMinor: number;
  platformOwned: boolean;
  vatMinor?: number;
  /**
   * The commission when the caller fixed it (issue 34: a creator's own pack is one sale of theirs, its
   * commission taken once from the pack's net and spread over its lines); between 0 and the net. Absent:
   * the commission percent of this share's net. Ignored for a platform-owned share (all its net is revenue).
   */
  commissionMinor?: number;
};

/** The ledger account of the VAT owed to one country's tax office. */
export const vatPayableCode = (country: string) => `vat:payable:${country}`;

export type Sale = {
  buyerId: number;
  shares: SaleShare[];
  commissionPercent: number;
  /** The journal transaction's reason ('purchase', 'chat image unlock', …): free text, read by people only. */
  reason: string;
  /** What the sale is about when the caller knows its id (a chat image); a purchase's order comes from its records. */
  subject?: { type: LedgerSubjectType; id: number };
  /** With a key, a second sale under the same key writes nothing (and no records) and answers `replayed`. */
  idempotency?: string;
  /** Setting `earnings_clearing_days`: 0 credits the sellers' available earnings at once, else their pending earnings (default 7). */
  clearingDays?: number;
  /** The country whose VAT the shares' `vatMinor` is (required when any share carries VAT). */
  vatCountry?: string | null;
  /** The accounts the caller's own read found (saleAccountColumns): only the others are looked up. */
  accounts?: KnownAccounts;
};

/**
 * A sale's accounts, read by the caller's own query of what it sells (the purchase's read of its
 * products: one query fewer per purchase). `saleAccountColumns` are its columns, on the seller column
 * given; `saleAccountValues` the values they read; `knownSaleAccounts` turns the rows into
 * `Sale.accounts`. A seller's first sale, a pack's other authors and the VAT account are not among
 * them: postSale looks those up, and creates what is missing.
 */
export const saleAccountColumns = (
  v: PrebuiltValue,
  sellerId: SQL,
) => sql`(select id from ledger_accounts where user_id = ${v('buyerId')}) as sale_buyer_account,
  (select id from ledger_accounts where code = ${v('saleRevenueCode')}) as sale_revenue_account,
  (select id from ledger_accounts where code = ${v('saleSpillCode')}) as sale_spill_account,
  (select id from ledger_accounts where code = ${v('saleEarnedPrefix')} || ${sellerId}) as sale_earned_account`;

export const saleAccountValues = (buyerId: number, clearingDays?: number) => ({
  saleRevenueCode: salesRevenueCode(buyerId),
  saleSpillCode: earningsAvailableCode(buyerId),
  saleEarnedPrefix: clearingDays === 0 ? EARNINGS_AVAILABLE_PREFIX : EARNINGS_PENDING_PREFIX,
});

export type SaleAccountRow = {
  sale_buyer_account: string | number | null;
  sale_revenue_account: string | number | null;
  sale_spill_account: string | number | null;
  sale_earned_account: string | number | null;
};

export function knownSaleAccounts(buyerId: number, clearingDays: number | undefined, rows: { sellerId: number; accounts: SaleAccountRow }[]): KnownAccounts {
  const id = (x: string | number | null) => (x == null ? null : Number(x));
  const earnedCode = clearingDays === 0 ? earningsAvailableCode : earningsPendingCode;
  const codes = new Map<string, number | null>();
  const users = new Map<number, number | null>();
  const [first] = rows;
  if (first) {
    users.set(buyerId, id(first.accounts.sale_buyer_account));
    codes.set(salesRevenueCode(buyerId), id(first.accounts.sale_revenue_account));
    codes.set(earningsAvailableCode(buyerId), id(first.accounts.sale_spill_account));
  }
  for (const r of rows) codes.set(earnedCode(r.sellerId), id(r.accounts.sale_earned_account));
  return { users, codes };
}

/**
 * The shape of the records a sale pays for (an order, its items, what the buyer now owns…), written in
 * the sale's own statement so that a refused charge leaves none of them, and the account locks, taken
 * after them, are held only for the entries and the commit. A shape is a module-level constant: the
 * statement's text depends only on it, and one name belongs to one shape (postSale refuses a second).
 * Every value is read through `v(name)` (a parameter of the statement); the sale adds its own, one per share in the order of
 * `Sale.shares`: `saleSellerMinor` and `saleCommissionMinor`, the split each sold line stores, and
 * `saleLineStates`, where the line's earnings start ('pending', 'released' when the clearing period is
 * 0, 'none' when it earns its seller nothing): the release job and refunds go by it (earnings.ts).
 */
export type SaleStatementShape = {
  /** Names the statement: one name, one shape. */
  name: string;
  /**
   * The row the sale is about, when the records write it (an order): `prelude` is a CTE run before the
   * journal header (such as taking the order's id from its sequence) and `id` reads it.
   */
  subject?: { type: LedgerSubjectType; prelude: SQL; id: SQL };
  /** Comma-separated CTEs (`a as (…), b as (…)`); `transactionId` is the sale's journal transaction id (null for a free sale). */
  ctes: (transactionId: SQL, v: SaleValue) => SQL;
  /** A number the accounts wait for: the rows the CTEs wrote (so they are written before any lock). */
  written: (v: SaleValue) => SQL;
  /** Extra columns of the statement's one row, such as `, (select id from o) as order_id`. */
  columns: (v: SaleValue) => SQL;
};

/** A value of the sale's records or of the sale itself, by name, as a parameter of the statement. */
export type SaleValue = (name: string) => SQL;

/** A sale's records: their shape and this sale's values, read by the shape through `v(name)`. */
export type SaleRecords = { shape: SaleStatementShape; values: Record<string, unknown> };

/** The commission of one share, taken from its net (all of the net when platform-owned). */
export function saleCommission(share: SaleShare, commissionPercent: number): number {
  const net = share.amountMinor - (share.vatMinor ?? 0);
  if (share.platformOwned) return net;
  return share.commissionMinor ?? commissionOf(net, commissionPercent);
}

/** What the seller of one share earns: its net less the commission. */
export const saleSellerShare = (share: SaleShare, commissionPercent: number) =>
  share.amountMinor - (share.vatMinor ?? 0) - saleCommission(share, commissionPercent);

/** What each seller earns from a sale, after commission (sellers who earn nothing left out). */
export function saleEarnings(sale: Pick<Sale, 'shares' | 'commissionPercent'>): Map<number, number> {
  const out = new Map<number, number>();
  for (const share of sale.shares) {
    const net = saleSellerShare(share, sale.commissionPercent);
    if (net > 0) out.set(share.sellerId, (out.get(share.sellerId) ?? 0) + net);
  }
  return out;
}

const NO_SHAPE: SaleStatementShape = { name: 'none', ctes: () => sql`nothing as (select 1)`, written: () => sql`1`, columns: () => sql`` };
const NO_RECORDS: SaleRecords = { shape: NO_SHAPE, values: {} };

/** The sale's one statement: its journal header, the caller's records, then the accounts locked, checked and charged. */
function saleStatement(records: SaleStatementShape, charge: boolean, v: SaleValue): SQL {
  return sql`with
    ${records.subject ? sql`${records.subject.prelude},` : sql``}
    t as (${
      charge
        ? sql`insert into ledger_transactions (reason, kind, subject_type, subject_id, idempotency_key)
            values (${v('saleReason')}, 'sale', ${records.subject ? sql`${records.subject.type}` : v('saleSubjectType')},
              ${records.subject ? records.subject.id : sql`${v('saleSubjectId')}::bigint`}, ${v('saleIdempotency')}) returning id`
        : sql`select null::bigint as id`
    }),
    ${records.ctes(sql`(select id from t)`, v)},
    done as materialized (select ${records.written(v)} as n)${
      charge
        ? sql`, ${chargeCtes(sql`${v('saleAccounts')}::bigint[]`, sql`${v('saleAmounts')}::bigint[]`, {
            after: sql`(select n from done) > 0`,
            spill: { payer: sql`${v('salePayer')}::bigint`, to: sql`${v('saleSpill')}::bigint` },
          })},
    written as (${chargeEntriesOrRefuse(sql`(select id from t)`)})`
        : sql`, written as (select null::bigint as account_id where false)`
    }
    select (select id from t) as transaction_id, (select count(*) from written) as written_entries,
      ${charge ? sql`(select count(*) from checked where amount_minor <> 0)` : sql`0`} as expected_entries${records.columns(v)}`;
}

/** The statement of each records shape, by name, and whether it charges: one name, one shape (a second shape under a known name is refused). */
const statements = new Map<
  string,
  { shape: SaleStatementShape; charging: (values: Record<string, unknown>) => SQL; free: (values: Record<string, unknown>) => SQL }
>();

/** The sale statement of a records shape, built once (db/prebuilt): a sale only fills in its values. */
function saleQuery(shape: SaleStatementShape, charge: boolean, values: Record<string, unknown>): SQL {
  let known = statements.get(shape.name);
  if (known === undefined) {
    known = {
      shape,
      charging: prebuilt(`sale_${shape.name}_charge`, (v) => saleStatement(shape, true, v)),
      free: prebuilt(`sale_${shape.name}_free`, (v) => saleStatement(shape, false, v)),
    };
    statements.set(shape.name, known);
  } else if (known.shape !== shape) throw new Error(`Two different sale statements are named '${shape.name}'.`);
  return (charge ? known.charging : known.free)(values);
}

/**
 * Posts a sale, in the caller's transaction or, given the database itself, as one statement that
 * commits by itself (PostgreSQL runs every statement atomically). Returns the journal transaction id
 * (null for a free sale), the row of `records.columns`, and whether an idempotent replay wrote nothing.
 * Throws InsufficientFunds when the buyer's balance is short; any other database error (a unique key
 * of the records) as it came.
 */
export async function postSale(
  db: Db,
  sale: Sale,
  records: SaleRecords = NO_RECORDS,
): Promise<{ transactionId: number | null; row: Record<string, unknown>; replayed: boolean }> {
  if (sale.idempotency) {
    const [done] = await db
      .select({ id: ledgerTransactions.id })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.idempotencyKey, sale.idempotency))
      .limit(1);
    if (done) return { transactionId: done.id, row: {}, replayed: true };
  }
  for (const share of sale.shares) {
    if (!Number.isSafeInteger(share.amountMinor) || share.amountMinor < 0) throw new Error('A sale share is a non-negative integer of cents.');
    const vat = share.vatMinor ?? 0;
    if (!Number.isSafeInteger(vat) || vat < 0 || vat > share.amountMinor) throw new Error('A sale share carries VAT between 0 and its amount.');
    if (vat > 0 && !sale.vatCountry) throw new Error('A sale that carries VAT names its country.');
    const fixed = share.commissionMinor;
    if (fixed !== undefined && (!Number.isSafeInteger(fixed) || fixed < 0 || fixed > share.amountMinor - vat)) {
      throw new Error('A fixed commission is an integer of cents between 0 and the share net of VAT.');
    }
  }
  const vatCode = sale.shares.some((share) => (share.vatMinor ?? 0) > 0) ? vatPayableCode(sale.vatCountry!) : null;
  const total = sale.shares.reduce((s, share) => s + share.amountMinor, 0);
  let lines: TransferLine[] = [];
  let payer: number | null = null;
  let spill: number | null = null;
  if (total > 0) {
    const revenueCode = salesRevenueCode(sale.buyerId);
    const earnedCode = sale.clearingDays === 0 ? earningsAvailableCode : earningsPendingCode;
    const earners = sale.shares.filter((share) => !share.platformOwned).map((share) => earnedCode(share.sellerId));
    // The buyer's available earnings are read in the same query, never created (see the spill below).
    const spillCode = earningsAvailableCode(sale.buyerId);
    const accounts = await accountIds(db, {
      userIds: [sale.buyerId],
      codes: [revenueCode, ...earners, ...(vatCode ? [vatCode] : [])],
      ifExisting: [spillCode],
      known: sale.accounts,
    });
    const revenue = accounts.byCode.get(revenueCode)!;
    payer = accounts.byUser.get(sale.buyerId)!;
    const raw: TransferLine[] = [{ accountId: payer, amountMinor: -total }];
    for (const share of sale.shares) {
      const commission = saleCommission(share, sale.commissionPercent);
      const earned = saleSellerShare(share, sale.commissionPercent);
      raw.push({ accountId: revenue, amountMinor: commission });
      if (vatCode && share.vatMinor) raw.push({ accountId: accounts.byCode.get(vatCode)!, amountMinor: share.vatMinor });
      if (earned > 0) raw.push({ accountId: accounts.byCode.get(earnedCode(share.sellerId))!, amountMinor: earned });
    }
    lines = chargeLines(raw);
    // What the balance does not cover comes from the buyer's available earnings, if they have any
    // account for them (without one there is nothing to spill into, and none is created for it).
    spill = accounts.byCode.get(spillCode) ?? null;
    if (spill !== null && !lines.some((l) => l.accountId === spill)) {
      lines = [...lines, { accountId: spill, amountMinor: 0 }].sort((a, b) => a.accountId - b.accountId);
    }
  }
  const charge = lines.length > 0;
  const shape = records.shape;
  // The split of each share, stored by the records on the line it sold (a refund gives back exactly these).
  const commissions = sale.shares.map((share) => saleCommission(share, sale.commissionPercent));
  let result: Record<string, unknown>[];
  try {
    const values: Record<string, unknown> = {
      ...records.values,
      saleReason: sale.reason,
      saleSubjectType: sale.subject?.type ?? null,
      saleSubjectId: sale.subject?.id ?? null,
      saleSellerMinor: sale.shares.map((share, i) => share.amountMinor - (share.vatMinor ?? 0) - commissions[i]!),
      saleCommissionMinor: commissions,
      saleVatMinor: sale.shares.map((share) => share.vatMinor ?? 0),
      saleLineStates: sale.shares.map((share, i) =>
        share.platformOwned || share.amountMinor - (share.vatMinor ?? 0) - commissions[i]! <= 0 ? 'none' : sale.clearingDays === 0 ? 'released' : 'pending',
      ),
      saleIdempotency: sale.idempotency ?? null,
      saleAccounts: lines.map((l) => l.accountId),
      saleAmounts: lines.map((l) => l.amountMinor),
      salePayer: payer,
      saleSpill: spill,
    };
    result = rowsOf<Record<string, unknown>>(await db.execute(saleQuery(shape, charge, values)));
  } catch (err) {
    const refused = refusalOf(err);
    if (refused instanceof InsufficientFunds) throw refused;
    throw refused ?? err;
  }
  const row = result[0] ?? {};
  if (Number(row.written_entries ?? 0) !== Number(row.expected_entries ?? 0)) throw new Error('A ledger transfer wrote fewer entries than it has lines.');
  return { transactionId: row.transaction_id == null ? null : Number(row.transaction_id), row, replayed: false };
}

/**
 * The accounts `postSale` touches for this buyer and these sellers (created on first use): for a
 * caller that must lock them with others first (a card webhook paying a chat image, see lockAccounts).
 */
export async function saleAccountIds(
  db: Db,
  opts: { buyerId: number; sellerIds: number[]; clearingDays?: number; vatCountry?: string | null },
): Promise<number[]> {
  const revenueCode = salesRevenueCode(opts.buyerId);
  const earnedCode = opts.clearingDays === 0 ? earningsAvailableCode : earningsPendingCode;
  const accounts = await accountIds(db, {
    userIds: [opts.buyerId],
    codes: [revenueCode, ...opts.sellerIds.map(earnedCode), ...(opts.vatCountry ? [vatPayableCode(opts.vatCountry)] : [])],
    ifExisting: [earningsAvailableCode(opts.buyerId)],
  });
  return [...new Set([...accounts.byUser.values(), ...accounts.byCode.values()])];
}
