import type { OssReport } from '@atelier/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';

/** The first day of a quarter ('2026-Q4') and the first day after it, as UTC timestamps. */
export function quarterBounds(quarter: string): { from: string; to: string } {
  const [year, q] = [Number(quarter.slice(0, 4)), Number(quarter.slice(6))];
  const from = new Date(Date.UTC(year, (q - 1) * 3, 1));
  const to = new Date(Date.UTC(year, q * 3, 1));
  return { from: from.toISOString(), to: to.toISOString() };
}

/**
 * The One-Stop Shop return of a quarter (issue 33): per country and rate, the net and the VAT of the
 * sales made in it (order lines and paid chat images), less the refunds made in it, and how many of each, from the figures each sold line
 * stored when it was sold (never recomputed). Sales under reverse charge carry no VAT and are not part
 * of it. `ledger_vat_minor` is what the `vat:payable:<country>` accounts moved in the same quarter: the
 * report equals it to the cent (the reconciliation checks the accounts against the lines).
 */
export async function ossReport(db: Db, quarter: string): Promise<OssReport> {
  const { from, to } = quarterBounds(quarter);
  const rows = rowsOf<{ country: string; rate_bp: number; net: string; vat: string; sales: string; refunds: string }>(
    await db.execute(sql`
      with lines as (
        select o.tax_country as country, o.tax_rate_bp as rate_bp, oi.price_minor - oi.vat_minor as net, oi.vat_minor as vat, 1 as sale, 0 as refund
        from order_items oi join orders o on o.id = oi.order_id
        where o.created_at >= ${from}::timestamptz and o.created_at < ${to}::timestamptz and o.vat_minor > 0 and not o.reverse_charge
        union all
        select o.tax_country, o.tax_rate_bp, -(oi.price_minor - oi.vat_minor), -oi.vat_minor, 0, 1
        from order_items oi join orders o on o.id = oi.order_id
        where oi.refunded_at >= ${from}::timestamptz and oi.refunded_at < ${to}::timestamptz and o.vat_minor > 0 and not o.reverse_charge
        union all
        select m.tax_country, m.tax_rate_bp, m.paid_minor - m.vat_minor, m.vat_minor, 1, 0
        from chat_messages m
        where m.unlocked_at >= ${from}::timestamptz and m.unlocked_at < ${to}::timestamptz and m.vat_minor > 0
        union all
        select m.tax_country, m.tax_rate_bp, -(m.paid_minor - m.vat_minor), -m.vat_minor, 0, 1
        from chat_messages m
        where m.refunded_at >= ${from}::timestamptz and m.refunded_at < ${to}::timestamptz and m.vat_minor > 0
      )
      select country, rate_bp, sum(net) as net, sum(vat) as vat, sum(sale) as sales, sum(refund) as refunds
      from lines group by country, rate_bp order by country, rate_bp`),
  );
  const [ledger] = rowsOf<{ total: string | null }>(
    await db.execute(sql`
      select coalesce(sum(e.amount_minor), 0) as total
      from ledger_entries e join ledger_accounts a on a.id = e.account_id join ledger_transactions t on t.id = e.transaction_id
      where a.kind = 'vat_payable' and t.created_at >= ${from}::timestamptz and t.created_at < ${to}::timestamptz`),
  );
  const out = rows.map((r) => ({
    country: r.country,
    rate: Number(r.rate_bp) / 100,
    net_minor: Number(r.net),
    vat_minor: Number(r.vat),
    sales: Number(r.sales),
    refunds: Number(r.refunds),
  }));
  return {
    quarter,
    from: from.slice(0, 10),
    to: to.slice(0, 10),
    rows: out,
    total_vat_minor: out.reduce((s, r) => s + r.vat_minor, 0),
    ledger_vat_minor: Number(ledger?.total ?? 0),
  };
}

const money = (minor: number) => (minor / 100).toFixed(2);

/** The report as CSV: one line per country and rate, amounts in EUR. */
export function ossCsv(report: OssReport): string {
  const lines = ['country,rate_percent,net_eur,vat_eur,sales,refunds'];
  for (const r of report.rows) lines.push([r.country, r.rate, money(r.net_minor), money(r.vat_minor), r.sales, r.refunds].join(','));
  return `${lines.join('\r\n')}\r\n`;
}
