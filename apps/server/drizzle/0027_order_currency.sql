-- Issue 18 bug 7: an order keeps the currency it was shown and paid in, with that day's rate, so its
-- amounts never change with later rates. Orders written before this have none: they show in EUR,
-- the ledger's own currency, which is what was charged.
ALTER TABLE "orders" ADD COLUMN "paid_currency" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_rate" numeric(18, 8);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_decimals" integer;
