import { minorToAmount, type StatementKind, type StatementLine } from '@atelier/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type DisplayCurrency, displayAmount } from '../../lib/display-currency';

export const STATEMENT_PAGE_SIZE = 20;
/** The CSV download's ceiling: a year of a busy buyer's movements, in one answer. */
export const STATEMENT_CSV_MAX = 10_000;

type Row = {
  id: string | number;
  reason: string;
  idem: string | null;
  created_at: string | Date;
  amount_minor: string | number;
  balance_after: string | number;
  order_id: string | number | null;
  order_title: string | null;
  refund_title: string | null;
  chat_id: string | number | null;
  account_kind: string;
};

/**
 * What a journal transaction is, seen from one user's account: the writer's `reason` and the sign of
 * the user's entry. One table, so a new writer adds its line here and its movements get a name.
 */
function classify(reason: string, minor: number): { kind: StatementKind; description: (r: Row) => string; link: (r: Row) => string | null } {
  const toOrders = () => '/dashboard/orders';
  if (reason === 'deposit') return { kind: 'deposit', description: () => 'Funds added by card', link: () => '/dashboard/deposits' };
  if (reason === 'purchase' || reason === 'cart purchase' || reason.startsWith('sale'))
    return minor < 0
      ? { kind: 'purchase', description: (r) => (r.order_title ? `Purchase: ${r.order_title}` : 'Purchase'), link: toOrders }
      : { kind: 'sale', description: (r) => (r.order_title ? `Sale: ${r.order_title}` : 'Sale of your work'), link: () => '/dashboard' };
  if (reason === 'chat image unlock')
    return minor < 0
      ? { kind: 'unlock', description: () => 'Image unlocked in a chat', link: (r) => (r.chat_id ? `/dashboard/chat?chat=${r.chat_id}` : '/dashboard/chat') }
      : { kind: 'sale', description: () => 'Image sold in a chat', link: (r) => (r.chat_id ? `/dashboard/chat?chat=${r.chat_id}` : '/dashboard/chat') };
  if (reason.startsWith('image generation refund') || reason.startsWith('refund'))
    return {
      kind: 'refund',
      // Issue 31: a refund line names the work it gave the money back for (from its refund request).
      description: (r) => (reason.startsWith('image generation') ? 'Refund of an image generation' : r.refund_title ? `Refund: ${r.refund_title}` : 'Refund'),
      link: toOrders,
    };
  if (reason.startsWith('image generation')) return { kind: 'generation', description: () => 'Image generation', link: toOrders };
  // Chargebacks (payments/disputes.ts): the card payment's amount is held, given back, or gone.
  if (reason === 'deposit refunded')
    return { kind: 'refund', description: () => 'Card payment refunded by the card issuer', link: () => '/dashboard/deposits' };
  if (reason === 'dispute opened') return { kind: 'adjustment', description: () => 'Card payment disputed: amount on hold', link: () => '/dashboard/deposits' };
  if (reason === 'dispute won') return { kind: 'adjustment', description: () => 'Dispute closed: amount released', link: () => '/dashboard/deposits' };
  if (reason.startsWith('earnings release')) return { kind: 'earnings_release', description: () => 'Earnings released', link: () => '/dashboard' };
  if (reason.startsWith('withdrawal'))
    return { kind: 'withdrawal', description: () => (reason.endsWith('returned') ? 'Withdrawal returned' : 'Withdrawal'), link: () => '/dashboard/earnings' };
  // Staff adjustments carry 'manual adjustment by staff <id>: <reason>': the user sees the reason, not the staff id.
  const staffReason = /^manual adjustment by staff \d+: (.*)$/s.exec(reason)?.[1];
  return { kind: 'adjustment', description: () => (staffReason ? `Adjustment: ${staffReason}` : 'Adjustment'), link: () => null };
}

function statementSql(userId: number, limit: number, offset: number) {
  // Every account of the user: the balance, and a creator's earnings (pending, available, receivable).
  // Running balance after each entry: that account's balance less what came after it (newest first).
  return sql`
    with acct as (select id, kind, balance_minor from ledger_accounts where user_id = ${userId} or owner_id = ${userId}),
    lines as (
      select e.id, e.transaction_id, e.amount_minor, a.kind as account_kind,
             a.balance_minor - coalesce(sum(e.amount_minor) over (partition by e.account_id order by e.id desc rows between unbounded preceding and 1 preceding), 0) as balance_after
      from ledger_entries e join acct a on a.id = e.account_id
    )
    select l.id, t.reason, t.idempotency_key as idem, t.created_at, l.amount_minor, l.balance_after, l.account_kind,
           o.id as order_id, o.title as order_title, rf.title as refund_title, m.chat_id
    from (select * from lines order by id desc limit ${limit} offset ${offset}) l
    join ledger_transactions t on t.id = l.transaction_id
    left join lateral (select id, title from orders where ledger_transaction_id = t.id limit 1) o on true
    left join lateral (
      select p.title from refund_requests rr join products p on p.id = rr.product_id where rr.refund_transaction_id = t.id limit 1
    ) rf on true
    left join lateral (
      select cm.chat_id from chat_messages cm
      where cm.id = (case when t.idempotency_key ~ '^chat-unlock:[0-9]{1,18}$' then substr(t.idempotency_key, 13)::bigint end)
    ) m on true
    order by l.id desc`;
}

function toLine(r: Row, currency: DisplayCurrency): StatementLine {
  const minor = Number(r.amount_minor);
  const after = Number(r.balance_after);
  const c = classify(r.reason, minor);
  return {
    id: Number(r.id),
    created_at: Math.floor(new Date(r.created_at).getTime() / 1000),
    kind: c.kind,
    account: r.account_kind === 'user' ? 'balance' : (r.account_kind as StatementLine['account']),
    description: c.description(r),
    amount: minorToAmount(minor),
    amount_minor: minor,
    balance_after: minorToAmount(after),
    balance_after_minor: after,
    currency: 'EUR',
    display: {
      amount: displayAmount(minor, currency),
      balance_after: displayAmount(after, currency),
      currency: currency.code,
      currencySymbol: currency.symbol,
    },
    link: c.link(r),
  };
}

/** A page of the user's statement, newest first, with the total count. */
export async function statementPage(db: Db, userId: number, page: number, currency: DisplayCurrency) {
  const [count] = (
    (await db.execute(
      sql`select count(*) as total from ledger_entries e join ledger_accounts a on a.id = e.account_id where a.user_id = ${userId} or a.owner_id = ${userId}`,
    )) as unknown as { rows: { total: string | number }[] }
  ).rows;
  const total = Number(count?.total ?? 0);
  const result = (await db.execute(statementSql(userId, STATEMENT_PAGE_SIZE, (page - 1) * STATEMENT_PAGE_SIZE))) as unknown as { rows: Row[] };
  return {
    lines: result.rows.map((r) => toLine(r, currency)),
    meta: { total, pages: Math.max(1, Math.ceil(total / STATEMENT_PAGE_SIZE)), page, limit: STATEMENT_PAGE_SIZE },
  };
}

/**
 * One CSV cell. Issue 31: amounts are plain numbers ("-19.00"), so spreadsheets add them up; only a
 * text cell that starts like a formula (= + - @) is quoted as text.
 */
const csvCell = (v: string | number, text: boolean) => {
  const s = typeof v === 'number' ? String(v) : v;
  const safe = text && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The whole statement (up to STATEMENT_CSV_MAX lines) as CSV, in EUR and, when it is another, the display currency. */
export async function statementCsv(db: Db, userId: number, currency: DisplayCurrency): Promise<string> {
  const result = (await db.execute(statementSql(userId, STATEMENT_CSV_MAX, 0))) as unknown as { rows: Row[] };
  // Each column once (issue 31): in euros, the display currency's columns would repeat the euro ones.
  const other = currency.code !== 'EUR';
  const code = currency.code.toLowerCase();
  const head = ['date', 'kind', 'description', 'amount_eur', 'balance_after_eur', ...(other ? [`amount_${code}`, `balance_after_${code}`] : [])];
  const body = result.rows.map((r) => {
    const l = toLine(r, currency);
    const cells: [string | number, boolean][] = [
      [new Date(l.created_at * 1000).toISOString(), false],
      [l.kind, true],
      [l.description, true],
      [l.amount.toFixed(2), false],
      [l.balance_after.toFixed(2), false],
      ...(other
        ? ([
            [l.display.amount, false],
            [l.display.balance_after, false],
          ] as [number, boolean][])
        : []),
    ];
    return cells.map(([v, text]) => csvCell(v, text)).join(',');
  });
  return `${[head.join(','), ...body].join('\r\n')}\r\n`;
}
