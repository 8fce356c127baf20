-- Commerce: the double-entry ledger, cart, orders, deposits and payment webhooks.
--
-- Ledger rules enforced here, not only in code:
--   * every journal transaction's entries sum to zero (deferred constraint trigger, checked at commit);
--   * the journal is append-only (UPDATE and DELETE raise);
--   * ledger_accounts.balance_minor is the sum of the account's entries, kept by a trigger in the same
--     transaction as the entry, and may not go below zero unless the account allows it (the payment
--     provider's clearing account is the mirror of all deposits, so it is negative).
CREATE TABLE "ledger_accounts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"user_id" bigint REFERENCES "users"("id"),
	"code" text,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"balance_minor" bigint DEFAULT 0 NOT NULL,
	"allow_negative" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_kind_check" CHECK ("kind" IN ('user', 'platform_revenue', 'provider_clearing')),
	CONSTRAINT "ledger_accounts_owner_check" CHECK (("kind" = 'user') = ("user_id" IS NOT NULL) AND ("kind" = 'user') = ("code" IS NULL)),
	CONSTRAINT "ledger_accounts_user_not_negative" CHECK ("kind" <> 'user' OR NOT "allow_negative"),
	CONSTRAINT "ledger_accounts_balance_not_negative" CHECK ("allow_negative" OR "balance_minor" >= 0)
);--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_user_idx" ON "ledger_accounts" ("user_id") WHERE "user_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_code_idx" ON "ledger_accounts" ("code") WHERE "code" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"reason" text NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_idempotency_idx" ON "ledger_transactions" ("idempotency_key") WHERE "idempotency_key" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"transaction_id" bigint NOT NULL REFERENCES "ledger_transactions"("id"),
	"account_id" bigint NOT NULL REFERENCES "ledger_accounts"("id"),
	"amount_minor" bigint NOT NULL,
	CONSTRAINT "ledger_entries_amount_not_zero" CHECK ("amount_minor" <> 0)
);--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" ("account_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_journal_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger journal is append-only (% on %)', TG_OP, TG_TABLE_NAME;
END
$$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION ledger_journal_append_only();--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON "ledger_transactions"
  FOR EACH ROW EXECUTE FUNCTION ledger_journal_append_only();--> statement-breakpoint
-- The cached balance moves with each entry, in the same transaction; the CHECK above then refuses a
-- user balance below zero even if application code forgot to look.
CREATE OR REPLACE FUNCTION ledger_entries_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger_accounts SET balance_minor = balance_minor + NEW.amount_minor WHERE id = NEW.account_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_apply AFTER INSERT ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_apply();--> statement-breakpoint
-- Checked at commit, once all of a transaction's entries are in.
CREATE OR REPLACE FUNCTION ledger_entries_balanced() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  total numeric;
BEGIN
  SELECT coalesce(sum(amount_minor), 0) INTO total FROM ledger_entries WHERE transaction_id = NEW.transaction_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance (sum %)', NEW.transaction_id, total;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON "ledger_entries"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_balanced();--> statement-breakpoint

-- A product the platform owns (after an offer buy-out) credits platform revenue in full.
ALTER TABLE "products" ADD COLUMN "platform_owned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Currencies without a fraction (JPY): deposits in them must be whole numbers.
ALTER TABLE "currencies" ADD COLUMN "whole_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint

CREATE TABLE "cart_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cart_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"product_id" bigint NOT NULL REFERENCES "products"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "cart_items_user_product_idx" ON "cart_items" ("user_id", "product_id");--> statement-breakpoint

CREATE TABLE "orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"buyer_id" bigint NOT NULL REFERENCES "users"("id"),
	"title" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"status" text DEFAULT 'success' NOT NULL,
	"product_type" text NOT NULL,
	"ledger_transaction_id" bigint REFERENCES "ledger_transactions"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_status_check" CHECK ("status" IN ('success', 'pending', 'failed')),
	CONSTRAINT "orders_amount_check" CHECK ("amount_minor" >= 0)
);--> statement-breakpoint
CREATE INDEX "orders_buyer_idx" ON "orders" ("buyer_id", "id");--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" bigint NOT NULL REFERENCES "orders"("id"),
	"product_id" bigint NOT NULL REFERENCES "products"("id"),
	"pack_id" bigint REFERENCES "products"("id"),
	"seller_id" bigint NOT NULL REFERENCES "users"("id"),
	"price_minor" bigint NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE INDEX "order_items_order_idx" ON "order_items" ("order_id");--> statement-breakpoint
-- What a user owns: one row per product, so two concurrent purchases of the same product cannot both succeed.
CREATE TABLE "user_products" (
	"user_id" bigint NOT NULL REFERENCES "users"("id"),
	"product_id" bigint NOT NULL REFERENCES "products"("id"),
	"order_id" bigint NOT NULL REFERENCES "orders"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_products_pk" PRIMARY KEY ("user_id", "product_id")
);--> statement-breakpoint
-- Idempotency-Key: the first answer to a key, per user, replayed for every retry.
CREATE TABLE "idempotency_keys" (
	"user_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_pk" PRIMARY KEY ("user_id", "key")
);--> statement-breakpoint

CREATE TABLE "deposits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deposits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL REFERENCES "users"("id"),
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"currency_amount_minor" bigint NOT NULL,
	"provider" text NOT NULL,
	"payment_method" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"error_message" text,
	"provider_ref" text,
	"checkout_nonce" text,
	"card_brand" text,
	"card_last4" text,
	"ledger_transaction_id" bigint REFERENCES "ledger_transactions"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposits_status_check" CHECK ("status" IN ('processing', 'success', 'failed', 'error')),
	CONSTRAINT "deposits_amount_check" CHECK ("amount_minor" > 0)
);--> statement-breakpoint
CREATE INDEX "deposits_user_idx" ON "deposits" ("user_id", "id");--> statement-breakpoint
CREATE INDEX "deposits_processing_idx" ON "deposits" ("created_at") WHERE "status" = 'processing';--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_provider_ref_idx" ON "deposits" ("provider", "provider_ref") WHERE "provider_ref" IS NOT NULL;--> statement-breakpoint
-- Webhook events already applied: a replay is answered 200 and changes nothing.
CREATE TABLE "payment_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_events_pk" PRIMARY KEY ("provider", "event_id")
);
