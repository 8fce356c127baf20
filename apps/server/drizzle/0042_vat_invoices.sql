-- Issue 33: VAT by the buyer's country, invoices and credit notes, the One-Stop Shop report.
-- A. The EU-27 standard VAT rates with the day each took effect (basis points: 1900 = 19.00 %). Staff
--    edit them in the back office; a sale takes the row of the buyer's country with the latest
--    valid_from on or before the day of the sale. A country without a row (outside the EU) pays 0 %.
CREATE TABLE "vat_rates" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "country" text NOT NULL CHECK ("country" ~ '^[A-Z]{2}$'),
  "rate_bp" integer NOT NULL CHECK ("rate_bp" >= 0 AND "rate_bp" <= 5000),
  "valid_from" date NOT NULL,
  "updated_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "vat_rates_country_from_idx" UNIQUE ("country", "valid_from")
);--> statement-breakpoint
INSERT INTO "vat_rates" ("country", "rate_bp", "valid_from") VALUES
  ('AT', 2000, '2016-01-01'), ('BE', 2100, '1996-01-01'), ('BG', 2000, '2007-01-01'), ('HR', 2500, '2012-03-01'),
  ('CY', 1900, '2014-01-13'), ('CZ', 2100, '2013-01-01'), ('DK', 2500, '1992-01-01'), ('EE', 2200, '2024-01-01'),
  ('EE', 2400, '2025-07-01'), ('FI', 2400, '2013-01-01'), ('FI', 2550, '2024-09-01'), ('FR', 2000, '2014-01-01'),
  ('DE', 1900, '2021-01-01'), ('GR', 2400, '2016-06-01'), ('HU', 2700, '2012-01-01'), ('IE', 2300, '2021-03-01'),
  ('IT', 2200, '2013-10-01'), ('LV', 2100, '2011-01-01'), ('LT', 2100, '2009-09-01'), ('LU', 1700, '2024-01-01'),
  ('MT', 1800, '2004-05-01'), ('NL', 2100, '2012-10-01'), ('PL', 2300, '2011-01-01'), ('PT', 2300, '2016-01-01'),
  ('RO', 1900, '2017-01-01'), ('RO', 2100, '2025-08-01'), ('SK', 2000, '2011-01-01'), ('SK', 2300, '2025-01-01'),
  ('SI', 2200, '2013-07-01'), ('ES', 2100, '2012-09-01'), ('SE', 2500, '1990-07-01');--> statement-breakpoint
-- Each app server keeps the rates (features/tax): a change drops them, as a settings change does.
CREATE TRIGGER vat_rates_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON vat_rates FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('settings');--> statement-breakpoint
-- B. The buyer's own statements: the country on the profile (one piece of evidence) and a business's VAT number.
ALTER TABLE "users" ADD COLUMN "tax_country" text CHECK ("tax_country" ~ '^[A-Z]{2}$');--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "vat_number" text;--> statement-breakpoint
-- The country of the card that paid a deposit (the provider says it; the sandbox reads it from the BIN).
ALTER TABLE "deposits" ADD COLUMN "card_country" text CHECK ("card_country" ~ '^[A-Z]{2}$');--> statement-breakpoint
-- C. An order's tax, stored when it is sold and never recomputed: the country, the rate, the evidence
--    that decided it, the buyer's VAT number under reverse charge, and its invoice (and credit note) number.
ALTER TABLE "orders" ADD COLUMN "tax_country" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_rate_bp" integer NOT NULL DEFAULT 0;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_minor" bigint NOT NULL DEFAULT 0;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reverse_charge" boolean NOT NULL DEFAULT false;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_vat_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_evidence" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "invoice_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credit_note_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credit_note_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_invoice_number_idx" ON "orders" ("invoice_number") WHERE "invoice_number" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_credit_note_number_idx" ON "orders" ("credit_note_number") WHERE "credit_note_number" IS NOT NULL;--> statement-breakpoint
-- Each sold line's VAT, carved out of its price: price = VAT + the seller's share + the commission.
ALTER TABLE "order_items" ADD COLUMN "vat_minor" bigint NOT NULL DEFAULT 0 CHECK ("vat_minor" >= 0);--> statement-breakpoint
ALTER TABLE "order_items" DROP CONSTRAINT "order_items_split_check";--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_split_check"
  CHECK ("seller_minor" >= 0 AND "commission_minor" >= 0 AND "seller_minor" + "commission_minor" + "vat_minor" = "price_minor");--> statement-breakpoint
-- D. Gapless numbering: one counter row per series and year, taken (and locked until commit) by the
--    transaction that issues the number, so a rolled-back purchase gives its number back.
CREATE TABLE "invoice_counters" (
  "series" text NOT NULL CHECK ("series" IN ('invoice', 'credit_note')),
  "year" integer NOT NULL,
  "last" integer NOT NULL,
  PRIMARY KEY ("series", "year")
);--> statement-breakpoint
-- E. VAT owed to a country's tax office: one ledger account per country, 'vat:payable:<country>'.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("kind" IN ('user', 'platform_revenue', 'provider_clearing', 'earnings_pending', 'earnings_available', 'earnings_held', 'receivable', 'withdrawal_clearing', 'dispute_hold', 'vat_payable'));
