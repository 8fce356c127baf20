import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';

/**
 * Invoice and credit note numbers (issue 33): one gapless series per year each, `2026-000123` and
 * `CN-2026-000001`. A number is taken from its year's counter row (invoice_counters) only for an order
 * that exists (committed) and has none yet, in the same statement that writes it on the order, after
 * the order's row was locked: two never get the same number, and no number is taken for nothing.
 *
 * An invoice is numbered after its purchase commits, by the order's receipt job (or on the first
 * download, whichever comes first), not inside the purchase: the counter row is one row for every
 * purchase of the year, and held by each purchase until its commit it would make all purchases wait on
 * each other. A credit note is numbered in its refund's transaction, which locks the order anyway.
 */

/** In the caller's transaction, the order's row already locked: numbers its invoice unless it has a number. */
async function numberInvoice(tx: Db, orderId: number): Promise<string | null> {
  const [written] = rowsOf<{ invoice_number: string | null }>(
    await tx.execute(sql`
    with n as (
      insert into invoice_counters (series, year, last)
      select 'invoice', extract(year from now() at time zone 'UTC')::int, 1 from orders where id = ${orderId} and invoice_number is null
      on conflict (series, year) do update set last = invoice_counters.last + 1
      returning year::text || '-' || lpad(last::text, 6, '0') as number
    )
    update orders set invoice_number = coalesce(orders.invoice_number, (select number from n)) where id = ${orderId}
    returning invoice_number`),
  );
  return written?.invoice_number ?? null;
}

/** Gives a committed order its invoice number once; answers the number (the one it had, or the new one). */
export async function assignInvoiceNumber(db: Db, orderId: number): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [current] = rowsOf<{ invoice_number: string | null }>(await tx.execute(sql`select invoice_number from orders where id = ${orderId} for update`));
    if (!current) return null;
    return current.invoice_number ?? (await numberInvoice(tx, orderId));
  });
}

/**
 * Gives a refunded order its credit note number, once (its first refund; later refunds of its other
 * items are listed on the same credit note). In the refund's transaction, after the order row was locked.
 */
export async function issueCreditNote(tx: Db, orderId: number): Promise<void> {
  // A refund soon after the purchase may come before its receipt job numbered the invoice.
  await numberInvoice(tx, orderId);
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
