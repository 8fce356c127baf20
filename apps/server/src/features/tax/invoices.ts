import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * Invoice and credit note numbers (issue 33): one gapless series per year each, `2026-000123` and
 * `CN-2026-000001`. A number is taken from its year's counter row (invoice_counters) by the very
 * transaction that issues the document, and that row stays locked until it commits: a purchase or a
 * refund that rolls back gives its number back, and two never get the same one. The price is that
 * purchases take the invoice row one after the other for the last statement and the commit.
 */

/** The purchase statement's CTE (features/orders, PURCHASE_SALE): `invoice_no.number` is this order's invoice number. */
export const INVOICE_NUMBER_CTE = sql`invoice_no as (
      insert into invoice_counters (series, year, last) values ('invoice', extract(year from now() at time zone 'UTC')::int, 1)
      on conflict (series, year) do update set last = invoice_counters.last + 1
      returning year::text || '-' || lpad(last::text, 6, '0') as number
    )`;

/**
 * Gives a refunded order its credit note number, once (its first refund; later refunds of its other
 * items are listed on the same credit note). In the refund's transaction, after the order row was locked.
 */
export async function issueCreditNote(tx: Db, orderId: number): Promise<void> {
  await tx.execute(sql`
    with cn as (
      insert into invoice_counters (series, year, last)
      select 'credit_note', extract(year from now() at time zone 'UTC')::int, 1
      from orders where id = ${orderId} and credit_note_number is null and invoice_number is not null
      on conflict (series, year) do update set last = invoice_counters.last + 1
      returning 'CN-' || year::text || '-' || lpad(last::text, 6, '0') as number
    )
    update orders set credit_note_number = (select number from cn), credit_note_at = now()
    where id = ${orderId} and credit_note_number is null and exists (select 1 from cn)`);
}
