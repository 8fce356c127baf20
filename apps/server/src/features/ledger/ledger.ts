import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../../db/schema';

/**
 * The money core: a double-entry ledger in PostgreSQL. Every movement is one journal transaction
 * whose entries sum to zero. The database enforces the rules too (migration 0007_ledger): balanced
 * transactions (a deferred constraint trigger), an append-only journal, and no user balance below
 * zero (a CHECK on the cached balance, which a trigger moves with every entry).
 */

/** System accounts. Clearing mirrors the money a provider collected for us, so it runs negative. */
export const PLATFORM_REVENUE = 'platform:revenue';
export const clearingAccountCode = (provider: string) => `clearing:${provider}`;

export type TransferLine = { accountId: number; amountMinor: number };

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
  const kind = code === PLATFORM_REVENUE ? 'platform_revenue' : 'provider_clearing';
  await db
    .insert(ledgerAccounts)
    .values({ kind, code, allowNegative: kind === 'provider_clearing' })
    .onConflictDoNothing({ target: ledgerAccounts.code, where: sql`code is not null` });
  const [row] = await db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(eq(ledgerAccounts.code, code)).limit(1);
  return row!.id;
}

/** The user's balance in EUR cents (0 before the first movement). */
export async function balanceOf(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ balance: ledgerAccounts.balanceMinor }).from(ledgerAccounts).where(eq(ledgerAccounts.userId, userId)).limit(1);
  return row ? Number(row.balance) : 0;
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
  opts: { lines: TransferLine[]; reason: string; idempotency?: string },
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
  const ids = lines.map((l) => l.accountId).sort((a, b) => a - b);
  const locked = ids.length
    ? await tx
        .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balanceMinor, allowNegative: ledgerAccounts.allowNegative })
        .from(ledgerAccounts)
        .where(inArray(ledgerAccounts.id, ids))
        .orderBy(asc(ledgerAccounts.id))
        .for('update')
    : [];
  if (locked.length !== ids.length) throw new Error('A ledger transfer names an unknown account.');
  for (const line of lines) {
    const account = locked.find((a) => a.id === line.accountId)!;
    const after = Number(account.balance) + line.amountMinor;
    if (after < 0 && !account.allowNegative) throw new InsufficientFunds(account.id, -after);
  }
  const [txn] = await tx
    .insert(ledgerTransactions)
    .values({ reason: opts.reason, idempotencyKey: opts.idempotency ?? null })
    .returning({ id: ledgerTransactions.id });
  if (lines.length) await tx.insert(ledgerEntries).values(lines.map((l) => ({ transactionId: txn!.id, accountId: l.accountId, amountMinor: l.amountMinor })));
  return { transactionId: txn!.id, replayed: false };
}

export type LedgerCheck = {
  /** Journal transactions whose entries do not sum to zero (must be empty). */
  unbalancedTransactions: number[];
  /** Accounts whose cached balance differs from the sum of their entries (must be empty). */
  driftedAccounts: number[];
  /** Sum of every account's balance (must be 0: money is only moved, never made). */
  totalMinor: number;
};

/** Reconciliation: the journal balances, the cached balances match it, and nothing was created. */
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
  return {
    unbalancedTransactions: unbalanced.map((r) => Number(r.id)),
    driftedAccounts: drifted.map((r) => Number(r.id)),
    totalMinor: Number(total?.total ?? 0),
  };
}

/** Sum of all user balances (tests and the bench compare it to deposits minus what was spent). */
export async function totalUserBalances(db: Db): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerAccounts.balanceMinor}), 0)` })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, 'user')));
  return Number(row?.total ?? 0);
}
