import { eq, inArray, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { type LedgerAccountKind, type LedgerSubjectType, type LedgerTransactionKind, ledgerAccounts, ledgerEntries, ledgerTransactions } from '../../db/schema';
import { pgErrorIn } from '../../lib/pg-errors';

/**
 * LOCK ORDER (one order everywhere, so two transactions never wait on each other in a cycle):
 *   1. domain rows first, in this order when a transaction takes several: a refund request,
 *      chat (then its message), offer, order, deposit;
 *   2. ledger accounts last, in ascending id order, all of them before the first entry is written
 *      (`transfer`/`postTransfer` lock their own lines in id order; a transaction that makes several
 *      transfers takes every account they touch at once first, with `lockAccounts`).
 * A card webhook that pays for a chat image therefore locks the chat and the message, then the
 * deposit, then every account; the balance unlock locks the chat and the message, then the
 * accounts. No HTTP call to a provider runs inside a database transaction: the intent (a deposit,
 * a payout) is written and committed first, and the provider is called after, keyed by its id.
 *
 * The money core: a double-entry ledger in PostgreSQL. Every movement is one journal transaction
 * whose entries sum to zero. The database enforces the rules too (migration 0007_ledger): balanced
 * transactions (a deferred constraint trigger), an append-only journal, and no user balance below
 * zero (a CHECK on the cached balance, which a trigger moves with every entry).
 */

/** System accounts. Clearing mirrors the money a provider collected for us, so it runs negative. */
export const PLATFORM_REVENUE = 'platform:revenue';

/**
 * Sales credit the platform's revenue through this many accounts of kind `platform_revenue` (the
 * first is PLATFORM_REVENUE itself), chosen by the buyer: one revenue row locked by every sale until
 * its commit would make all purchases wait on each other's disk flush. The platform's revenue is the
 * sum of these accounts (`platformRevenueMinor`).
 */
export const REVENUE_SHARDS = 8;
export const revenueAccountCode = (shard: number) => (shard % REVENUE_SHARDS === 0 ? PLATFORM_REVENUE : `${PLATFORM_REVENUE}:${shard % REVENUE_SHARDS}`);
/** The revenue account a buyer's purchases credit (a buyer's own purchases wait on each other anyway, on the buyer's account). */
export const salesRevenueCode = (buyerId: number) => revenueAccountCode(buyerId);
const isRevenueCode = (code: string) => code === PLATFORM_REVENUE || code.startsWith(`${PLATFORM_REVENUE}:`);
export const clearingAccountCode = (provider: string) => `clearing:${provider}`;

/**
 * A creator's earnings (migration 0026), three accounts per creator, each created on first use:
 * - pending: their share of every sale or unlock, until the clearing period has passed (`earnings.release`);
 * - available: released earnings, spent after the balance by a purchase (postSale) or withdrawn;
 * - receivable: may go below zero. A refund (refund.ts) takes a creator's share from pending, then
 *   available, then here, so a creator who has withdrawn everything owes it; their next sales pay it back first.
 * Money being withdrawn sits in WITHDRAWALS_IN_FLIGHT until the payout is paid or fails.
 */
export const EARNINGS_PENDING_PREFIX = 'earnings:pending:';
export const EARNINGS_AVAILABLE_PREFIX = 'earnings:available:';
export const earningsPendingCode = (userId: number) => `${EARNINGS_PENDING_PREFIX}${userId}`;
export const earningsAvailableCode = (userId: number) => `${EARNINGS_AVAILABLE_PREFIX}${userId}`;
export const receivableCode = (userId: number) => `receivable:${userId}`;
/** A creator's earnings held for open refund requests (migration 0036): neither withdrawable nor spendable until the request ends. */
export const earningsHeldCode = (userId: number) => `earnings:held:${userId}`;
export const WITHDRAWALS_IN_FLIGHT = 'withdrawals:in-flight';
/** Money of card payments under dispute (chargebacks, migration 0029), until the provider decides. */
export const DISPUTES_HOLD = 'disputes:hold';

type AccountShape = { kind: LedgerAccountKind; ownerId: number | null; allowNegative: boolean };
/** What a system account's code makes it: its kind, owner and whether it may go below zero. */
function accountShapeOf(code: string): AccountShape {
  const owned = /^(earnings:pending|earnings:available|earnings:held|receivable):(\d{1,18})$/.exec(code);
  if (owned) {
    const kinds: Record<string, LedgerAccountKind> = {
      'earnings:pending': 'earnings_pending',
      'earnings:available': 'earnings_available',
      'earnings:held': 'earnings_held',
      receivable: 'receivable',
    };
    const kind = kinds[owned[1]!]!;
    return { kind, ownerId: Number(owned[2]), allowNegative: kind === 'receivable' };
  }
  if (code === WITHDRAWALS_IN_FLIGHT) return { kind: 'withdrawal_clearing', ownerId: null, allowNegative: false };
  if (code === DISPUTES_HOLD) return { kind: 'dispute_hold', ownerId: null, allowNegative: false };
  if (isRevenueCode(code)) return { kind: 'platform_revenue', ownerId: null, allowNegative: false };
  if (/^vat:payable:[A-Z]{2}$/.test(code)) return { kind: 'vat_payable', ownerId: null, allowNegative: false };
  return { kind: 'provider_clearing', ownerId: null, allowNegative: true };
}

export type TransferLine = { accountId: number; amountMinor: number };

/**
 * What a journal transaction is (its `kind`), what it is about (`subject`), and, for a staff
 * adjustment, what the user is shown (`note`). `reason` is free text for people reading the journal.
 */
export type JournalFacts = {
  kind: LedgerTransactionKind;
  subject?: { type: LedgerSubjectType; id: number };
  note?: string;
  reason: string;
};

/** A transfer would take an account below zero; `shortfallMinor` is how much is missing. */
export class InsufficientFunds extends Error {
  constructor(
    readonly accountId: number,
    readonly shortfallMinor: number,
  ) {
    super('Insufficient funds');
    this.name = 'InsufficientFunds';
  }
}

/** The user's balance account, created on first use. */
export async function userAccountId(db: Db, userId: number): Promise<number> {
  const [found] = await db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(eq(ledgerAccounts.userId, userId)).limit(1);
  if (found) return found.id;
  await db.insert(ledgerAccounts).values({ kind: 'user', userId }).onConflictDoNothing({ target: ledgerAccounts.userId, where: sql`user_id is not null` });
  const [row] = await db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(eq(ledgerAccounts.userId, userId)).limit(1);
  return row!.id;
}

/** A system account by code (revenue, a provider's clearing), created on first use. */
export async function systemAccountId(db: Db, code: string): Promise<number> {
  const [found] = await db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(eq(ledgerAccounts.code, code)).limit(1);
  if (found) return found.id;
  const shape = accountShapeOf(code);
  await db
    .insert(ledgerAccounts)
    .values({ kind: shape.kind, code, ownerId: shape.ownerId, allowNegative: shape.allowNegative })
    .onConflictDoNothing({ target: ledgerAccounts.code, where: sql`code is not null` });
  const [row] = await db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(eq(ledgerAccounts.code, code)).limit(1);
  return row!.id;
}

/** A system account's id by code, or null when it does not exist yet (nothing is created). */
export async function existingAccountId(db: Db, code: string): Promise<number | null> {
  const [found] = await db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(eq(ledgerAccounts.code, code)).limit(1);
  return found?.id ?? null;
}

/** A user's balance account id as a scalar subquery (null before the account exists), to be read with other rows. */
export const userAccountIdSql = (userId: number | SQL | Placeholder) => sql`(select id from ledger_accounts where user_id = ${userId})`;
/** A system account's id as a scalar subquery (null before it exists). */
export const systemAccountIdSql = (code: string | SQL | Placeholder) => sql`(select id from ledger_accounts where code = ${code})`;

/** Accounts a caller's own read already found, by user (balance accounts) and by code; null: read, and it does not exist yet. */
export type KnownAccounts = { users: ReadonlyMap<number, number | null>; codes: ReadonlyMap<string, number | null> };

/**
 * Several accounts in one query: users' balance accounts by user id, system accounts by code, each
 * created on first use; `ifExisting` codes are read in the same query and left out when they do not
 * exist (nothing is created for them).
 */
export async function accountIds(
  db: Db,
  opts: { userIds: number[]; codes: string[]; ifExisting?: string[]; known?: KnownAccounts },
): Promise<{ byUser: Map<number, number>; byCode: Map<string, number> }> {
  const byUser = new Map<number, number>();
  const byCode = new Map<string, number>();
  // What the caller's own read found (null: read and absent) is not asked again.
  const known = opts.known;
  for (const [userId, id] of known?.users ?? []) if (id !== null) byUser.set(userId, id);
  for (const [code, id] of known?.codes ?? []) if (id !== null) byCode.set(code, id);
  const userIds = [...new Set(opts.userIds)].filter((u) => !known?.users.has(u));
  const created = new Set(opts.codes);
  const codes = [...new Set([...opts.codes, ...(opts.ifExisting ?? [])])].filter((c) => !known?.codes.has(c));
  const rows =
    userIds.length || codes.length
      ? await db
          .select({ id: ledgerAccounts.id, userId: ledgerAccounts.userId, code: ledgerAccounts.code })
          .from(ledgerAccounts)
          .where(or(userIds.length ? inArray(ledgerAccounts.userId, userIds) : undefined, codes.length ? inArray(ledgerAccounts.code, codes) : undefined))
      : [];
  for (const r of rows) {
    if (r.userId !== null) byUser.set(Number(r.userId), r.id);
    if (r.code !== null) byCode.set(r.code, r.id);
  }
  for (const userId of opts.userIds) if (!byUser.has(userId)) byUser.set(userId, await userAccountId(db, userId));
  for (const code of created) if (!byCode.has(code)) byCode.set(code, await systemAccountId(db, code));
  return { byUser, byCode };
}

/** The user's balance in EUR cents (0 before the first movement). */
export async function balanceOf(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ balance: ledgerAccounts.balanceMinor }).from(ledgerAccounts).where(eq(ledgerAccounts.userId, userId)).limit(1);
  return row ? Number(row.balance) : 0;
}

/** What a user can pay with: their balance and their available earnings (postSale takes them in that order). */
export async function spendableOf(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerAccounts.balanceMinor}), 0)` })
    .from(ledgerAccounts)
    .where(or(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.code, earningsAvailableCode(userId))));
  return Number(row?.total ?? 0);
}

/**
 * Locks accounts (SELECT … FOR UPDATE) in ascending id order: for a transaction that makes several
 * transfers, so that all of their accounts are taken at once, in the one order, before the first.
 */
export async function lockAccounts(tx: Db, ids: number[]): Promise<void> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  if (!sorted.length) return;
  await tx.execute(sql`select id from ledger_accounts where id = any(${sql.param(sorted)}::bigint[]) order by id for update`);
}

/** Lines for one account are merged; zero lines dropped; the rest must sum to zero. */
function normalizeLines(lines: TransferLine[]): TransferLine[] {
  const byAccount = new Map<number, number>();
  for (const line of lines) {
    if (!Number.isSafeInteger(line.amountMinor)) throw new Error('Ledger amounts are integer minor units.');
    byAccount.set(line.accountId, (byAccount.get(line.accountId) ?? 0) + line.amountMinor);
  }
  const merged = [...byAccount].filter(([, amount]) => amount !== 0).map(([accountId, amountMinor]) => ({ accountId, amountMinor }));
  const sum = merged.reduce((s, l) => s + l.amountMinor, 0);
  if (sum !== 0) throw new Error(`A ledger transaction must sum to zero (got ${sum}).`);
  return merged;
}

/**
 * Moves money between accounts as one journal transaction. Must run inside the caller's database
 * transaction: it locks every touched account (SELECT … FOR UPDATE, in id order, so two transfers
 * never wait on each other in a cycle), refuses to take a non-negative account below zero
 * (InsufficientFunds), then writes the entries. With an idempotency key, a second call with the same
 * key writes nothing and returns the first transaction's id.
 */
export async function transfer(
  tx: Db,
  opts: JournalFacts & { lines: TransferLine[]; idempotency?: string },
): Promise<{ transactionId: number; replayed: boolean }> {
  const lines = normalizeLines(opts.lines);
  if (opts.idempotency) {
    const [done] = await tx
      .select({ id: ledgerTransactions.id })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.idempotencyKey, opts.idempotency))
      .limit(1);
    if (done) return { transactionId: done.id, replayed: true };
  }
  const transactionId = await openTransfer(tx, opts);
  await postTransfer(tx, transactionId, lines);
  return { transactionId, replayed: false };
}

/**
 * The first half of a transfer: the journal transaction's header, so records written before the money
 * moves (an order) can reference it. It locks nothing. `postTransfer` must follow in the same database
 * transaction; a header left without entries is rolled back with everything else when a check fails.
 */
export async function openTransfer(tx: Db, opts: JournalFacts & { idempotency?: string }): Promise<number> {
  const [txn] = await tx
    .insert(ledgerTransactions)
    .values({
      reason: opts.reason,
      kind: opts.kind,
      subjectType: opts.subject?.type ?? null,
      subjectId: opts.subject?.id ?? null,
      note: opts.note ?? null,
      idempotencyKey: opts.idempotency ?? null,
    })
    .returning({ id: ledgerTransactions.id });
  return txn!.id;
}

/**
 * The SQL of a transfer's second half (postTransfer): `ctes` lock the accounts in id order (`locked`)
 * and check each line (`checked`); `allowed` is true when every account exists and none would go
 * below zero; `entries(transactionId)` writes the journal entries (their trigger then moves the cached
 * balances of the locked rows); `result` reports per line, and `verify` turns that report into
 * InsufficientFunds or an error. A sale's statement (`postSale`, sale.ts) is built from `chargeCtes` instead.
 */
function chargeStatement(lines: TransferLine[]) {
  const normalized = normalizeLines(lines);
  const merged = [...normalized].sort((a, b) => a.accountId - b.accountId);
  // Each list is one array parameter, so the statement's text does not depend on how many lines it has.
  const bigints = (values: number[]) => sql`${sql.param(values)}::bigint[]`;
  const ctes = chargeCtes(bigints(merged.map((l) => l.accountId)), bigints(merged.map((l) => l.amountMinor)));
  const allowed = sql`((select count(*) from locked) = ${merged.length} and not exists (select 1 from checked where short or not known))`;
  const entries = (transactionId: SQL) => sql`insert into ledger_entries (transaction_id, account_id, amount_minor)
      select ${transactionId}, account_id, amount_minor from checked
      where ${allowed}
      order by account_id
      returning account_id`;
  /** One row per line, with the caller's `extra` columns; `written` is the name of the CTE holding `entries(…)`. */
  const result = (extra: SQL = sql``) =>
    sql`select account_id, known, short, after, (select count(*) from locked) as locked, (select count(*) from written) as written${extra} from checked`;
  const verify = (rows: { account_id: string | number; known: boolean; short: boolean; after: string | number | null; written: string | number }[]) => {
    if (rows.some((r) => !r.known)) throw new Error('A ledger transfer names an unknown account.');
    // The first short account in the caller's order is the one reported, as before.
    for (const line of normalized) {
      const short = rows.find((r) => Number(r.account_id) === line.accountId && r.short);
      if (short) throw new InsufficientFunds(line.accountId, -Number(short.after));
    }
    if (Number(rows[0]?.written ?? 0) !== merged.length) throw new Error('A ledger transfer wrote fewer entries than it has lines.');
  };
  return { lineCount: merged.length, ctes, allowed, entries, result, verify };
}

/**
 * (Internal to features/ledger: sale.ts builds the sale statement from it; never exported by index.ts.)
 * The `lines`, `locked` and `checked` CTEs of a charge whose lines come as two bigint[] expressions
 * (account ids in ascending order, one amount each, summing to zero: the caller checks that, see
 * `chargeLines`), such as array parameters: the statement's text then does not depend on how many
 * lines it has. With `after`, the lines (and so the locks) wait until that condition is evaluated.
 */
export function chargeCtes(accountIds: SQL, amounts: SQL, opts: { after?: SQL; spill?: { payer: SQL; to: SQL } } = {}): SQL {
  // A spill (a sale): the payer's line is paid from the payer's account as far as its balance, read
  // under the lock, goes, and the rest from `to` (the buyer's available earnings, whose line comes as 0).
  // A line that ends at 0 writes no entry. Without `to` (null) the lines stay as given.
  const adjusted = opts.spill
    ? sql`spill as (
      select least(-l.amount_minor, greatest(k.balance_minor, 0)) as from_payer, -l.amount_minor as owed
      from lines l join locked k on k.id = l.account_id where l.account_id = ${opts.spill.payer}
    ),
    adjusted as (
      select account_id, case
        when ${opts.spill.to} is null then amount_minor
        when account_id = ${opts.spill.payer} then -(select from_payer from spill)
        when account_id = ${opts.spill.to} then amount_minor - (select owed - from_payer from spill)
        else amount_minor end as amount_minor
      from lines
    ),`
    : sql`adjusted as (select account_id, amount_minor from lines),`;
  return sql`lines as (
      select * from unnest(${accountIds}, ${amounts}) as l(account_id, amount_minor)
      ${opts.after ? sql`where ${opts.after}` : sql``}
    ),
    locked as materialized (
      select id, balance_minor, allow_negative from ledger_accounts where id in (select account_id from lines) order by id for update
    ),
    ${adjusted}
    checked as materialized (
      select l.account_id, l.amount_minor, k.id is not null as known,
             coalesce(k.balance_minor + l.amount_minor < 0 and not k.allow_negative, false) as short,
             k.balance_minor + l.amount_minor as after
      from adjusted l left join locked k on k.id = l.account_id
    )`;
}

/** A transfer's lines merged per account, checked to sum to zero, in ascending account order (the order locks are taken in). */
export function chargeLines(lines: TransferLine[]): TransferLine[] {
  return normalizeLines(lines).sort((a, b) => a.accountId - b.accountId);
}

/**
 * The entries of the `checked` lines, or for a line that may not be written, an error that undoes
 * the whole statement (ledger_refuse, migration 0012: SQLSTATE LD001, read back by `refusalOf`). For a
 * caller whose statement also writes the records the money pays for, so nothing is left half-written.
 */
export function chargeEntriesOrRefuse(transactionId: SQL): SQL {
  return sql`insert into ledger_entries (transaction_id, account_id, amount_minor)
      select ${transactionId}, account_id, amount_minor from checked
      where amount_minor <> 0
        and not exists (select 1 from checked where case when short or not known then ledger_refuse(account_id, after, known) else false end)
      order by account_id
      returning account_id`;
}

/** The ledger's refusal raised inside a statement (ledger_refuse, SQLSTATE LD001) as InsufficientFunds or an Error; null for any other error. */
export function refusalOf(err: unknown): Error | null {
  const e = pgErrorIn(err, (x) => x.code === 'LD001');
  if (!e) return null;
  const [account, missing] = String(e.detail ?? '').split(':');
  const shortfall = Number(missing);
  if (missing === 'unknown' || !Number.isSafeInteger(shortfall)) return new Error('A ledger transfer names an unknown account.');
  return new InsufficientFunds(Number(account), shortfall);
}

type ChargeRow = Parameters<ReturnType<typeof chargeStatement>['verify']>[0][number];

/**
 * The second half: locks the accounts (in id order), checks no non-negative account goes below zero
 * (InsufficientFunds), and writes the entries, all in one statement, so the locks, held until commit,
 * cost one round trip less. A caller whose sales all touch one shared account (platform revenue) calls
 * this last, just before it commits.
 */
export async function postTransfer(tx: Db, transactionId: number, lines: TransferLine[]): Promise<void> {
  const charge = chargeStatement(lines);
  if (!charge.lineCount) return;
  const result = await tx.execute(sql`with ${charge.ctes}, written as (${charge.entries(sql`${transactionId}`)}) ${charge.result()}`);
  charge.verify(rowsOf<ChargeRow>(result));
}

export type LedgerCheck = {
  /** Journal transactions whose entries do not sum to zero (must be empty). */
  unbalancedTransactions: number[];
  /** Accounts whose cached balance differs from the sum of their entries (must be empty). */
  driftedAccounts: number[];
  /** Sum of every account's balance (must be 0: money is only moved, never made). */
  totalMinor: number;
};

/**
 * Earnings accounts whose balance differs from their sold lines (issue 30): a creator's pending account
 * holds what their pending lines still hold (their share less what paid a debt), their held account
 * what their held lines hold. Lowest account id first.
 */
export async function unmatchedEarningsLines(db: Db): Promise<{ id: number; balance: number; lines: number }[]> {
  const rows = rowsOf<{ id: string | number | null; balance_minor: string | number; lines: string | number }>(
    await db.execute(sql`
    with line_sums as (
      select seller_id, earnings_state, sum(case when earnings_state = 'held' then held_minor else seller_minor - settled_minor end) as held
      from sale_lines where earnings_state in ('pending', 'held') group by seller_id, earnings_state
    )
    select a.id, a.balance_minor, coalesce(s.held, 0) as lines
    from ledger_accounts a
    left join line_sums s on s.seller_id = a.owner_id and s.earnings_state = (case a.kind when 'earnings_pending' then 'pending' else 'held' end)
    where a.kind in ('earnings_pending', 'earnings_held') and a.balance_minor <> coalesce(s.held, 0)
    union all
    select null, 0, s.held from line_sums s
    where s.held <> 0 and not exists (
      select 1 from ledger_accounts a where a.owner_id = s.seller_id and a.kind = (case s.earnings_state when 'pending' then 'earnings_pending' else 'earnings_held' end))
    order by 1 nulls first`),
  );
  return rows.map((r) => ({ id: r.id === null ? 0 : Number(r.id), balance: Number(r.balance_minor), lines: Number(r.lines) }));
}

/**
 * Reconciliation: the journal balances, the cached balances match it, nothing was created, and each
 * creator's pending and held earnings match their sold lines (an account that does not is reported
 * among `driftedAccounts`; 0 stands for an account that does not exist while its lines hold money).
 */
export async function checkLedger(db: Db): Promise<LedgerCheck> {
  const unbalanced = await db
    .select({ id: ledgerEntries.transactionId })
    .from(ledgerEntries)
    .groupBy(ledgerEntries.transactionId)
    .having(sql`sum(${ledgerEntries.amountMinor}) <> 0`);
  const drifted = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(sql`${ledgerAccounts.balanceMinor} <> coalesce((select sum(e.amount_minor) from ledger_entries e where e.account_id = ${ledgerAccounts.id}), 0)`);
  const [total] = await db.select({ total: sql<string>`coalesce(sum(${ledgerAccounts.balanceMinor}), 0)` }).from(ledgerAccounts);
  const lines = await unmatchedEarningsLines(db);
  return {
    unbalancedTransactions: unbalanced.map((r) => Number(r.id)),
    driftedAccounts: [...new Set([...drifted.map((r) => Number(r.id)), ...lines.map((r) => r.id)])],
    totalMinor: Number(total?.total ?? 0),
  };
}

/** The platform's revenue: the sum of its revenue accounts (see REVENUE_SHARDS). */
export async function platformRevenueMinor(db: Db): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerAccounts.balanceMinor}), 0)` })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.kind, 'platform_revenue'));
  return Number(row?.total ?? 0);
}

/**
 * Sum of all money users hold: balances and creators' earnings (pending, available, receivable). Tests
 * and the bench compare it to deposits minus what went to the platform (withdrawals not counted).
 */
export async function totalUserBalances(db: Db): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerAccounts.balanceMinor}), 0)` })
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.kind, ['user', 'earnings_pending', 'earnings_available', 'earnings_held', 'receivable']));
  return Number(row?.total ?? 0);
}
