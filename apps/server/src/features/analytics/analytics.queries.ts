import { ANALYTICS_DEFAULT_DAYS, type AnalyticsQuery, type PlatformAnalytics, type SellerAnalytics } from '@atelier/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type DisplayCurrency, displayAmount } from '../../lib/display-currency';
import { rowsOf, utcDay } from './views';

/** The most products one answer lists. */
const MAX_PRODUCTS = 200;

/** The range asked for, or the last ANALYTICS_DEFAULT_DAYS days (today included); the schema checked its order and length. */
export function analyticsRange(q: Pick<AnalyticsQuery, 'from' | 'to'>): { from: string; to: string } {
  const to = q.to ?? (q.from ? utcDay(new Date(Date.parse(q.from) + (ANALYTICS_DEFAULT_DAYS - 1) * 86_400_000)) : utcDay());
  const from = q.from ?? utcDay(new Date(Date.parse(to) - (ANALYTICS_DEFAULT_DAYS - 1) * 86_400_000));
  return { from, to };
}

const num = (v: unknown) => Number(v ?? 0);
const conversion = (sales: number, views: number) => (views > 0 ? Math.round((sales / views) * 10_000) / 10_000 : 0);
const currencyOf = (c: DisplayCurrency) => ({ code: c.code, symbol: c.symbol, decimals: c.decimals });

/**
 * The sold order items in the range, with what their seller earned: the split each line stored when it
 * was sold (migration 0036). A purchase of one's own work is no sale.
 */
function soldItems(range: { from: string; to: string }, sellerId: number | null): SQL {
  const bySeller = sellerId === null ? sql`true` : sql`oi.seller_id = ${sellerId}`;
  return sql`
    sold as (
      select (o.created_at at time zone 'UTC')::date as day, oi.product_id, oi.price_minor, oi.seller_minor as earned
      from order_items oi join orders o on o.id = oi.order_id
      where ${bySeller} and o.status = 'success' and o.buyer_id <> oi.seller_id
        and o.created_at >= (${range.from}::date)::timestamp at time zone 'UTC'
        and o.created_at < (${range.to}::date + 1)::timestamp at time zone 'UTC'
    )`;
}

/** GET /api/seller/analytics: the creator's views, sales and earnings per day and per work. */
export async function sellerAnalytics(db: Db, sellerId: number, q: AnalyticsQuery, currency: DisplayCurrency): Promise<SellerAnalytics> {
  const range = analyticsRange(q);
  const dayRows = rowsOf(
    await db.execute(sql`
      with ${soldItems(range, sellerId)},
      views as (
        select v.day, sum(v.views) as views from product_views v join products p on p.id = v.product_id
        where p.author_id = ${sellerId} and v.day between ${range.from}::date and ${range.to}::date group by v.day
      ),
      sales as (select day, count(*) as sales, sum(earned) as earned from sold group by day)
      select to_char(d.day, 'YYYY-MM-DD') as date, coalesce(views.views, 0) as views, coalesce(sales.sales, 0) as sales, coalesce(sales.earned, 0) as earned
      from generate_series(${range.from}::date, ${range.to}::date, interval '1 day') as d(day)
      left join views on views.day = d.day::date left join sales on sales.day = d.day::date
      order by d.day`),
  );
  const productRows = rowsOf(
    await db.execute(sql`
      with ${soldItems(range, sellerId)},
      views as (
        select v.product_id, sum(v.views) as views from product_views v join products p on p.id = v.product_id
        where p.author_id = ${sellerId} and v.day between ${range.from}::date and ${range.to}::date group by v.product_id
      ),
      sales as (select product_id, count(*) as sales, sum(earned) as earned from sold group by product_id)
      select p.id, p.title, coalesce(views.views, 0) as views, coalesce(sales.sales, 0) as sales, coalesce(sales.earned, 0) as earned
      from products p left join views on views.product_id = p.id left join sales on sales.product_id = p.id
      where p.author_id = ${sellerId} or p.id in (select product_id from sales)
      order by coalesce(sales.earned, 0) desc, coalesce(sales.sales, 0) desc, coalesce(views.views, 0) desc, p.id desc
      limit ${MAX_PRODUCTS}`),
  );

  const days = dayRows.map((r) => ({ date: String(r.date), views: num(r.views), sales: num(r.sales), revenue: displayAmount(num(r.earned), currency) }));
  const totalViews = days.reduce((s, d) => s + d.views, 0);
  const totalSales = days.reduce((s, d) => s + d.sales, 0);
  const earned = dayRows.reduce((s, r) => s + num(r.earned), 0);
  return {
    ...range,
    currency: currencyOf(currency),
    days,
    totals: { views: totalViews, sales: totalSales, revenue: displayAmount(earned, currency), conversion: conversion(totalSales, totalViews) },
    products: productRows.map((r) => ({
      id: num(r.id),
      title: String(r.title),
      views: num(r.views),
      sales: num(r.sales),
      revenue: displayAmount(num(r.earned), currency),
    })),
  };
}

/** GET /api/admin/analytics: every sale on the platform (full price) and the commission it earned. */
export async function platformAnalytics(db: Db, q: AnalyticsQuery, currency: DisplayCurrency): Promise<PlatformAnalytics> {
  const range = analyticsRange(q);
  // The commission is what a sale's transaction credited to the platform's revenue accounts.
  const commission = sql`
    orders_in as (
      select o.ledger_transaction_id as tx, (o.created_at at time zone 'UTC')::date as day from orders o
      where o.status = 'success' and o.ledger_transaction_id is not null
        and o.created_at >= (${range.from}::date)::timestamp at time zone 'UTC'
        and o.created_at < (${range.to}::date + 1)::timestamp at time zone 'UTC'
    ),
    commission as (
      select oi.day, sum(e.amount_minor) as commission
      from orders_in oi join ledger_entries e on e.transaction_id = oi.tx join ledger_accounts a on a.id = e.account_id
      where a.kind = 'platform_revenue' and e.amount_minor > 0 group by oi.day
    )`;
  const dayRows = rowsOf(
    await db.execute(sql`
      with ${soldItems(range, null)}, ${commission},
      views as (select day, sum(views) as views from product_views where day between ${range.from}::date and ${range.to}::date group by day),
      sales as (select day, count(*) as sales, sum(price_minor) as gross from sold group by day)
      select to_char(d.day, 'YYYY-MM-DD') as date, coalesce(views.views, 0) as views, coalesce(sales.sales, 0) as sales,
        coalesce(sales.gross, 0) as gross, coalesce(commission.commission, 0) as commission
      from generate_series(${range.from}::date, ${range.to}::date, interval '1 day') as d(day)
      left join views on views.day = d.day::date left join sales on sales.day = d.day::date
      left join commission on commission.day = d.day::date
      order by d.day`),
  );
  const productRows = rowsOf(
    await db.execute(sql`
      with ${soldItems(range, null)},
      sales as (select product_id, count(*) as sales, sum(price_minor) as gross from sold group by product_id),
      views as (
        select product_id, sum(views) as views from product_views
        where day between ${range.from}::date and ${range.to}::date group by product_id
      ),
      top as (
        select coalesce(sales.product_id, views.product_id) as product_id, coalesce(views.views, 0) as views,
          coalesce(sales.sales, 0) as sales, coalesce(sales.gross, 0) as gross
        from sales full join views on views.product_id = sales.product_id
        order by 4 desc, 3 desc, 2 desc, 1 desc limit ${MAX_PRODUCTS}
      )
      select p.id, p.title, u.nickname as author, top.views, top.sales, top.gross
      from top join products p on p.id = top.product_id join users u on u.id = p.author_id
      order by top.gross desc, top.sales desc, top.views desc, p.id desc`),
  );

  const days = dayRows.map((r) => ({
    date: String(r.date),
    views: num(r.views),
    sales: num(r.sales),
    revenue: displayAmount(num(r.gross), currency),
    commission: displayAmount(num(r.commission), currency),
  }));
  const totalViews = days.reduce((s, d) => s + d.views, 0);
  const totalSales = days.reduce((s, d) => s + d.sales, 0);
  const sum = (key: string) => dayRows.reduce((s, r) => s + num(r[key]), 0);
  return {
    ...range,
    currency: currencyOf(currency),
    days,
    totals: {
      views: totalViews,
      sales: totalSales,
      revenue: displayAmount(sum('gross'), currency),
      commission: displayAmount(sum('commission'), currency),
      conversion: conversion(totalSales, totalViews),
    },
    products: productRows.map((r) => ({
      id: num(r.id),
      title: String(r.title),
      author: String(r.author),
      views: num(r.views),
      sales: num(r.sales),
      revenue: displayAmount(num(r.gross), currency),
    })),
  };
}

/** A CSV cell: quoted when needed, and a leading = + - @ made harmless for spreadsheets. */
function cell(value: string | number): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The same answer as CSV: one row per day, per product, then the totals (`kind` says which). */
export function analyticsCsv(a: SellerAnalytics | PlatformAnalytics, columns: readonly string[]): string {
  const code = a.currency.code;
  const lines = [columns.join(',')];
  const row = (values: (string | number)[]) => lines.push(values.map(cell).join(','));
  for (const d of a.days) row(['day', d.date, '', '', d.views, d.sales, d.revenue.toFixed(a.currency.decimals), code]);
  for (const p of a.products) row(['product', '', p.id, p.title, p.views, p.sales, p.revenue.toFixed(a.currency.decimals), code]);
  row(['total', `${a.from}..${a.to}`, '', '', a.totals.views, a.totals.sales, a.totals.revenue.toFixed(a.currency.decimals), code]);
  return `${lines.join('\r\n')}\r\n`;
}
