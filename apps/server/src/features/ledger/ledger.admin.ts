import type { JournalQuery, JournalTransaction, LedgerAccountView, Reconciliation } from '@atelier/shared';
import { and, asc, desc, eq, gte, ilike, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { ledgerAccounts, ledgerEntries, ledgerTransactions, users } from '../../db/schema';
import { unmatchedEarningsLines } from './ledger';

/** The other side of every manual adjustment: a system account that may go below zero. */
export const MANUAL_ADJUSTMENTS = 'adjustments:manual';

const accountSelect = {
  account: ledgerAccounts,
  user: { id: users.id, nickname: users.nickname, email: users.email },
};

type AccountJoin = { account: typeof ledgerAccounts.$inferSelect; user: { id: number; nickname: string; email: string } | null };

const toAccountView = ({ account, user }: AccountJoin): LedgerAccountView => ({
  id: account.id,
  kind: account.kind,
  code: account.code,
  user: (account.userId ?? account.ownerId) !== null && user ? user : null,
  balance_minor: Number(account.balanceMinor),
  allow_negative: account.allowNegative,
});

/** A short name for an account in the journal: its code, or the owner's nickname. */
const accountLabel = (a: AccountJoin) => a.account.code ?? (a.user ? `@${a.user.nickname}` : `account ${a.account.id}`);

/** Every ledger account with its cached balance: system accounts first, then users by id. */
export async function listAccounts(db: Db): Promise<LedgerAccountView[]> {
  const rows = await db
    .select(accountSelect)
    .from(ledgerAccounts)
    .leftJoin(users, eq(users.id, sql`coalesce(${ledgerAccounts.userId}, ${ledgerAccounts.ownerId})`))
    .orderBy(sql`${ledgerAccounts.userId} is not null`, asc(ledgerAccounts.id))
    .limit(1000);
  return rows.map(toAccountView);
}

export async function findAccount(db: Db, accountId: number): Promise<LedgerAccountView | null> {
  const [row] = await db
    .select(accountSelect)
    .from(ledgerAccounts)
    .leftJoin(users, eq(users.id, sql`coalesce(${ledgerAccounts.userId}, ${ledgerAccounts.ownerId})`))
    .where(eq(ledgerAccounts.id, accountId));
  return row ? toAccountView(row) : null;
}

/** Journal transactions, newest first, with their entries; filters combine. */
export async function listJournal(db: Db, query: JournalQuery): Promise<JournalTransaction[]> {
  const where: (SQL | undefined)[] = [];
  if (query.account_id) {
    where.push(sql`exists (select 1 from ledger_entries e where e.transaction_id = ${ledgerTransactions.id} and e.account_id = ${query.account_id})`);
  }
  if (query.user_id) {
    where.push(
      sql`exists (select 1 from ledger_entries e join ledger_accounts a on a.id = e.account_id where e.transaction_id = ${ledgerTransactions.id} and a.user_id = ${query.user_id})`,
    );
  }
  // The reason is matched as plain text: % and _ typed by staff are not wildcards.
  if (query.reason) where.push(ilike(ledgerTransactions.reason, `%${query.reason.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (query.from) where.push(gte(ledgerTransactions.createdAt, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) where.push(lt(ledgerTransactions.createdAt, new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000)));
  const txns = await db
    .select()
    .from(ledgerTransactions)
    .where(and(...where))
    .orderBy(desc(ledgerTransactions.id))
    .limit(query.limit);
  if (!txns.length) return [];
  const entries = await db
    .select({ entry: ledgerEntries, ...accountSelect })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .leftJoin(users, eq(users.id, sql`coalesce(${ledgerAccounts.userId}, ${ledgerAccounts.ownerId})`))
    .where(
      inArray(
        ledgerEntries.transactionId,
        txns.map((t) => t.id),
      ),
    )
    .orderBy(asc(ledgerEntries.id));
  return txns.map((t) => ({
    id: t.id,
    reason: t.reason,
    created_at: Math.floor(t.createdAt.getTime() / 1000),
    entries: entries
      .filter((e) => e.entry.transactionId === t.id)
      .map((e) => ({ account_id: e.entry.accountId, account: accountLabel(e), amount_minor: Number(e.entry.amountMinor) })),
  }));
}

/**
 * The reconciliation tile, checked afresh on every call: every journal transaction sums to zero,
 * every cached balance equals the sum of its entries, every user's earnings accounts add up to what
 * flowed in and out of them, all balances together are zero, the disputes hold equals the open
 * disputes (in all and each on its own, no payment held beyond its amount), and every
 * image generation's charge has ended as an image or a refund once its jobs' time is up. The first
 * mismatch (the lowest transaction id, then the lowest account id, then the total) is named.
 */
export async function reconcile(db: Db): Promise<Reconciliation> {
  const unbalanced = rowsOf<{ id: string | number; total: string | number }>(
    await db.execute(sql`
    select transaction_id as id, sum(amount_minor) as total from ledger_entries group by transaction_id having sum(amount_minor) <> 0 order by transaction_id`),
  );
  const drifted = rowsOf<{ id: string | number; cached: string | number; journal: string | number }>(
    await db.execute(sql`
    select a.id, a.balance_minor as cached, coalesce(j.total, 0) as journal
    from ledger_accounts a left join (select account_id, sum(amount_minor) as total from ledger_entries group by account_id) j on j.account_id = a.id
    where a.balance_minor <> coalesce(j.total, 0) order by a.id`),
  );
  const counts = rowsOf<{ transactions: string | number; accounts: string | number; total: string | number }>(
    await db.execute(sql`
    select (select count(*) from ledger_transactions) as transactions, (select count(*) from ledger_accounts) as accounts,
           (select coalesce(sum(balance_minor), 0) from ledger_accounts) as total`),
  );
  // Hole 4: a charge for an image generation past its settle-by moment (longer ago than its job's
  // attempts can take) with neither an image nor a refund.
  const unsettled = rowsOf<{ id: string | number; price_minor: string | number }>(
    await db.execute(sql`
    select id, price_minor from generations where status = 'pending' and price_minor > 0 and settle_by < now() order by id`),
  );
  // Each owner of earnings accounts (pending, available, receivable): their cached balances together
  // must equal minus what the other accounts of every journal transaction touching them moved (a
  // sale's buyer and revenue, a refund's buyer, a withdrawal's in-flight account, a dispute's balance
  // and hold); moves among their own accounts (a release) cancel out. It follows from balanced
  // transactions and cached balances equal to their entries, so it is red when either is broken for them.
  const earnings = rowsOf<{ id: string | number; cached: string | number; flowed: string | number }>(
    await db.execute(sql`
    with owned as (select id, owner_id, balance_minor from ledger_accounts where kind in ('earnings_pending', 'earnings_available', 'earnings_held', 'receivable')),
    touched as (select distinct o.owner_id, e.transaction_id from ledger_entries e join owned o on o.id = e.account_id),
    flows as (
      select t.owner_id, -sum(e.amount_minor) as flowed
      from touched t join ledger_entries e on e.transaction_id = t.transaction_id
      where not exists (select 1 from owned o where o.id = e.account_id and o.owner_id = t.owner_id)
      group by t.owner_id
    ),
    cached as (select owner_id, sum(balance_minor) as cached from owned group by owner_id)
    select c.owner_id as id, c.cached, coalesce(f.flowed, 0) as flowed
    from cached c left join flows f on f.owner_id = c.owner_id
    where c.cached <> coalesce(f.flowed, 0) order by c.owner_id`),
  );
  // Issue 30: each creator's pending and held earnings equal what their sold lines in that state hold.
  const lines = await unmatchedEarningsLines(db);
  // The disputes hold holds exactly the open disputes' amounts (chargebacks, payments/disputes.ts).
  const hold = rowsOf<{ id: string | number; held: string | number; open: string | number }>(
    await db.execute(sql`
    select a.id, a.balance_minor as held, (select coalesce(sum(amount_minor), 0) from disputes where status = 'open') as open
    from ledger_accounts a where a.kind = 'dispute_hold'`),
  );
  // Each dispute on its own (issue 29): the hold its opening moved equals its amount, what it still
  // holds equals its amount while open and nothing once closed, and a payment's open and lost
  // disputes together hold no more than the payment. Found by the ledger moves' keys, never their reasons.
  const disputeRows = rowsOf<{ id: string | number; amount_minor: string | number; opened: string | number; holding: string | number; status: string }>(
    await db.execute(sql`
    with moves as (
      select t.idempotency_key as key, sum(e.amount_minor) as held
      from ledger_transactions t join ledger_entries e on e.transaction_id = t.id join ledger_accounts a on a.id = e.account_id and a.kind = 'dispute_hold'
      where t.idempotency_key like 'dispute-%'
      group by t.idempotency_key),
    per_dispute as (
      select d.id, d.deposit_id, d.status, d.amount_minor,
        coalesce((select held from moves where key = 'dispute-opened:' || d.id), 0) as opened,
        coalesce((select sum(held) from moves where key in ('dispute-opened:' || d.id, 'dispute-won:' || d.id, 'dispute-lost:' || d.id)), 0) as holding
      from disputes d),
    over_held as (
      select p.deposit_id from per_dispute p join deposits dep on dep.id = p.deposit_id
      where p.status in ('open', 'lost') group by p.deposit_id, dep.amount_minor having sum(p.amount_minor) > dep.amount_minor)
    select p.id, p.amount_minor, p.opened, p.holding, p.status from per_dispute p
    where p.opened <> p.amount_minor
       or p.holding <> case when p.status = 'open' then p.amount_minor else 0 end
       or p.deposit_id in (select deposit_id from over_held)
    order by p.id`),
  );
  // Issue 33: each country's VAT account holds the VAT its sold lines stored, less what refunds gave back.
  const vatRows = rowsOf<{ id: string | number; held: string | number; owed: string | number }>(
    await db.execute(sql`
    with lines as (
      select o.tax_country as country, oi.vat_minor as vat
      from order_items oi join orders o on o.id = oi.order_id
      where oi.vat_minor > 0 and oi.refunded_at is null
      union all
      select m.tax_country, m.vat_minor from chat_messages m where m.vat_minor > 0 and m.refunded_at is null),
    owed as (select 'vat:payable:' || country as code, sum(vat) as vat from lines group by country)
    select coalesce(a.id, 0) as id, coalesce(a.balance_minor, 0) as held, coalesce(w.vat, 0) as owed
    from (select id, code, balance_minor from ledger_accounts where kind = 'vat_payable') a full join owed w on w.code = a.code
    where coalesce(a.balance_minor, 0) <> coalesce(w.vat, 0) order by 1`),
  );
  const firstVat = vatRows[0];
  const firstDispute = disputeRows[0];
  const holdRow = hold[0];
  const holdMismatch = holdRow && Number(holdRow.held) !== Number(holdRow.open) ? holdRow : null;
  const c = counts[0]!;
  const total = Number(c.total);
  const firstTxn = unbalanced[0];
  const firstAccount = drifted[0];
  const firstGeneration = unsettled[0];
  const firstEarnings = earnings[0];
  const firstLines = lines[0];
  const first_mismatch = firstTxn
    ? { kind: 'transaction' as const, id: Number(firstTxn.id), actual_minor: Number(firstTxn.total), expected_minor: 0 }
    : firstAccount
      ? { kind: 'account' as const, id: Number(firstAccount.id), actual_minor: Number(firstAccount.cached), expected_minor: Number(firstAccount.journal) }
      : firstEarnings
        ? { kind: 'earnings' as const, id: Number(firstEarnings.id), actual_minor: Number(firstEarnings.cached), expected_minor: Number(firstEarnings.flowed) }
        : firstLines
          ? { kind: 'earnings_lines' as const, id: firstLines.id, actual_minor: firstLines.balance, expected_minor: firstLines.lines }
          : total !== 0
            ? { kind: 'total' as const, id: null, actual_minor: total, expected_minor: 0 }
            : holdMismatch
              ? {
                  kind: 'dispute_hold' as const,
                  id: Number(holdMismatch.id),
                  actual_minor: Number(holdMismatch.held),
                  expected_minor: Number(holdMismatch.open),
                }
              : firstDispute
                ? {
                    kind: 'dispute' as const,
                    id: Number(firstDispute.id),
                    actual_minor: Number(firstDispute.opened),
                    expected_minor: Number(firstDispute.amount_minor),
                  }
                : firstGeneration
                  ? { kind: 'generation' as const, id: Number(firstGeneration.id), actual_minor: Number(firstGeneration.price_minor), expected_minor: 0 }
                  : firstVat
                    ? { kind: 'vat' as const, id: Number(firstVat.id), actual_minor: Number(firstVat.held), expected_minor: Number(firstVat.owed) }
                    : null;
  return {
    ok: first_mismatch === null,
    checked_at: Math.floor(Date.now() / 1000),
    transactions: Number(c.transactions),
    accounts: Number(c.accounts),
    unbalanced_transactions: unbalanced.map((r) => Number(r.id)),
    drifted_accounts: drifted.map((r) => Number(r.id)),
    unsettled_generations: unsettled.map((r) => Number(r.id)),
    unbalanced_earnings: earnings.map((r) => Number(r.id)),
    unmatched_earnings_lines: lines.map((r) => r.id),
    dispute_hold_minor: holdRow ? Number(holdRow.held) : 0,
    mismatched_disputes: disputeRows.map((r) => Number(r.id)),
    mismatched_vat: vatRows.map((r) => Number(r.id)),
    total_minor: total,
    first_mismatch,
  };
}

/** A user's journal lines (their account's entries), newest first. */
export async function userJournal(db: Db, userId: number, limit = 100) {
  const rows = await db
    .select({ txn: ledgerTransactions, amount: ledgerEntries.amountMinor })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(eq(ledgerAccounts.userId, userId))
    .orderBy(desc(ledgerEntries.id))
    .limit(limit);
  return rows.map((r) => ({
    transaction_id: r.txn.id,
    reason: r.txn.reason,
    amount_minor: Number(r.amount),
    created_at: Math.floor(r.txn.createdAt.getTime() / 1000),
  }));
}

/** Every receivable that is not zero, most owed first, with its user (a creator after a refund, a buyer after a chargeback). */
export async function listReceivables(db: Db, limit = 500) {
  const rows = await db
    .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balanceMinor, user: { id: users.id, nickname: users.nickname, email: users.email } })
    .from(ledgerAccounts)
    .innerJoin(users, eq(users.id, ledgerAccounts.ownerId))
    .where(and(eq(ledgerAccounts.kind, 'receivable'), sql`${ledgerAccounts.balanceMinor} <> 0`))
    .orderBy(asc(ledgerAccounts.balanceMinor), asc(ledgerAccounts.id))
    .limit(limit);
  return rows.map((r) => ({ accountId: r.id, balanceMinor: Number(r.balance), user: r.user }));
}
