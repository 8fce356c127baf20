import { messageText, minorToAmount, msg, type StatementKind, type StatementLine } from '@atelier/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import type { LedgerTransactionKind } from '../../db/schema';
import { type DisplayCurrency, displayAmount } from '../../lib/display-currency';

export const STATEMENT_PAGE_SIZE = 20;
/** The CSV download's ceiling: a year of a busy buyer's movements, in one answer. */
export const STATEMENT_CSV_MAX = 10_000;

type Row = {
  id: string | number;
  kind: LedgerTransactionKind;
  subject_type: string | null;
  note: string | null;
  created_at: string | Date;
  amount_minor: string | number;
  balance_after: string | number;
  order_id: string | number | null;
  order_title: string | null;
  refund_title: string | null;
  /** Issue 34: what a code or a sale took off the order ('code SPRING −2.00 €'), null without one. */
  discount_text?: string | null;
  chat_id: string | number | null;
  account_kind: string;
};

const discount = (r: Row) => (r.discount_text ? ` (${r.discount_text})` : '');

/** A description as a coded message (shared messages.ts): the web app shows it in the page's language. */
type Coded = string;

/** A purchase or sale, named by its work when the order has one. */
const titled = (kind: 'statement.purchase' | 'statement.sale', title: string | null, discount: string): Coded =>
  title ? msg(`${kind}_of`, { title, discount }) : msg(kind, { discount });

/**
 * What a journal transaction is, seen from one user's account: its `kind` (migration 0036), what it is
 * about, and the sign of the user's entry. One table, so a new kind adds its line here and its
 * movements get a name.
 */
function classify(r: Row, minor: number): { kind: StatementKind; description: Coded; link: string | null } {
  const toOrders = '/dashboard/orders';
  const toChat = r.chat_id ? `/dashboard/chat?chat=${r.chat_id}` : '/dashboard/chat';
  switch (r.kind) {
    case 'deposit':
      return { kind: 'deposit', description: msg('statement.deposit'), link: '/dashboard/deposits' };
    case 'sale':
      if (r.subject_type === 'chat_message')
        return minor < 0
          ? { kind: 'unlock', description: msg('statement.chat_unlock'), link: toChat }
          : { kind: 'sale', description: msg('statement.chat_sale'), link: toChat };
      return minor < 0
        ? { kind: 'purchase', description: titled('statement.purchase', r.order_title, discount(r)), link: toOrders }
        : { kind: 'sale', description: titled('statement.sale', r.order_title, discount(r)), link: '/dashboard' };
    case 'refund':
      // Issue 31: a refund line names the work it gave the money back for (from its refund request).
      return { kind: 'refund', description: r.refund_title ? msg('statement.refund_of', { title: r.refund_title }) : msg('statement.refund'), link: toOrders };
    case 'generation_refund':
      return { kind: 'refund', description: msg('statement.generation_refund'), link: toOrders };
    case 'generation_charge':
      return { kind: 'generation', description: msg('statement.generation'), link: toOrders };
    // Chargebacks (payments/disputes.ts): the card payment's amount is held, given back, or gone.
    case 'deposit_refund':
      return { kind: 'refund', description: msg('statement.deposit_refund'), link: '/dashboard/deposits' };
    case 'chargeback_hold':
      return { kind: 'adjustment', description: msg('statement.chargeback_hold'), link: '/dashboard/deposits' };
    case 'chargeback_release':
      return { kind: 'adjustment', description: msg('statement.chargeback_release'), link: '/dashboard/deposits' };
    case 'earnings_release':
      return { kind: 'earnings_release', description: msg('statement.earnings_release'), link: '/dashboard' };
    case 'earnings_hold':
      return { kind: 'adjustment', description: msg('statement.earnings_hold'), link: '/dashboard/earnings' };
    case 'earnings_unhold':
      return { kind: 'adjustment', description: msg('statement.earnings_unhold'), link: '/dashboard/earnings' };
    case 'withdrawal':
      return { kind: 'withdrawal', description: msg('statement.withdrawal'), link: '/dashboard/earnings' };
    case 'withdrawal_return':
      return { kind: 'withdrawal', description: msg('statement.withdrawal_return'), link: '/dashboard/earnings' };
    case 'receivable_settlement':
      return { kind: 'adjustment', description: msg('statement.debt_paid'), link: '/dashboard/earnings' };
    default:
      // A staff adjustment shows the staff member's words (its note), never who they are.
      return { kind: 'adjustment', description: r.note ? msg('statement.adjustment_note', { note: r.note }) : msg('statement.adjustment'), link: null };
  }
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
    select l.id, t.kind, t.subject_type, t.note, t.created_at, l.amount_minor, l.balance_after, l.account_kind,
           o.id as order_id, o.title as order_title, rf.title as refund_title, m.chat_id, dc.discount_text
    from (select * from lines order by id desc limit ${limit} offset ${offset}) l
    join ledger_transactions t on t.id = l.transaction_id
    left join lateral (select id, title from orders where ledger_transaction_id = t.id limit 1) o on true
    left join lateral (
      select string_agg(case when od.automatic then 'sale' else 'code ' || od.code end || ' −'
               || to_char(od.discount_minor / 100.0, 'FM999999990.00') || ' € off ' || to_char(od.list_price_minor / 100.0, 'FM999999990.00') || ' €', ', ') as discount_text
      from order_discounts od where od.order_id = o.id
    ) dc on true
    left join lateral (
      select p.title from refund_requests rr join products p on p.id = rr.product_id where rr.refund_transaction_id = t.id limit 1
    ) rf on true
    left join lateral (
      select cm.chat_id from chat_messages cm
      where t.subject_type = 'chat_message' and cm.id = t.subject_id
    ) m on true
    order by l.id desc`;
}

function toLine(r: Row, currency: DisplayCurrency): StatementLine {
  const minor = Number(r.amount_minor);
  const after = Number(r.balance_after);
  const c = classify(r, minor);
  return {
    id: Number(r.id),
    created_at: Math.floor(new Date(r.created_at).getTime() / 1000),
    kind: c.kind,
    account: r.account_kind === 'user' ? 'balance' : (r.account_kind as StatementLine['account']),
    description: messageText(c.description),
    description_code: c.description,
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
    link: c.link,
  };
}

/** A page of the user's statement, newest first, with the total count. */
export async function statementPage(db: Db, userId: number, page: number, currency: DisplayCurrency) {
  const [count] = rowsOf<{ total: string | number }>(
    await db.execute(
      sql`select count(*) as total from ledger_entries e join ledger_accounts a on a.id = e.account_id where a.user_id = ${userId} or a.owner_id = ${userId}`,
    ),
  );
  const total = Number(count?.total ?? 0);
  const result = rowsOf<Row>(await db.execute(statementSql(userId, STATEMENT_PAGE_SIZE, (page - 1) * STATEMENT_PAGE_SIZE)));
  return {
    lines: result.map((r) => toLine(r, currency)),
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
  const result = rowsOf<Row>(await db.execute(statementSql(userId, STATEMENT_CSV_MAX, 0)));
  // Each column once (issue 31): in euros, the display currency's columns would repeat the euro ones.
  const other = currency.code !== 'EUR';
  const code = currency.code.toLowerCase();
  const head = ['date', 'kind', 'description', 'amount_eur', 'balance_after_eur', ...(other ? [`amount_${code}`, `balance_after_${code}`] : [])];
  const body = result.map((r) => {
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
