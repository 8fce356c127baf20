/** VAT rates and invoice numbering (migration 0042_vat_invoices, issue 33; rules in features/tax). */
import { bigint, date, integer, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';

/** An EU country's standard VAT rate from a day on (basis points: 1900 = 19.00 %). */
export const vatRates = pgTable(
  'vat_rates',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    country: text('country').notNull(),
    rateBp: integer('rate_bp').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('vat_rates_country_from_idx').on(t.country, t.validFrom)],
);

/** The last number issued per series and year: gapless, because it is taken in the issuing transaction. */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    series: text('series').$type<'invoice' | 'credit_note'>().notNull(),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.year] })],
);
