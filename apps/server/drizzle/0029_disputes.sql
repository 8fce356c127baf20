-- Chargebacks (issue 19): a card payment's dispute, opened and closed by the provider's webhook.
-- While a dispute is open its deposit's amount sits in one system account 'disputes:hold' (kind
-- 'dispute_hold', never below zero); what the user had already spent is taken from their receivable,
-- which may go below zero. Won: the hold goes back; lost: it leaves through the provider's clearing.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("kind" IN ('user', 'platform_revenue', 'provider_clearing', 'earnings_pending', 'earnings_available', 'receivable', 'withdrawal_clearing', 'dispute_hold'));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_dispute_hold_not_negative" CHECK ("kind" <> 'dispute_hold' OR NOT "allow_negative");--> statement-breakpoint
-- Set when a dispute was opened on one of the user's payments: staff see the flag.
ALTER TABLE "users" ADD COLUMN "disputed_at" timestamp with time zone;--> statement-breakpoint
-- The provider's id of the payment itself (a Stripe PaymentIntent), which its disputes and refunds name.
ALTER TABLE "deposits" ADD COLUMN "provider_payment_ref" text;--> statement-breakpoint
CREATE INDEX "deposits_provider_payment_ref_idx" ON "deposits" ("provider", "provider_payment_ref") WHERE "provider_payment_ref" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "disputes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"provider" text NOT NULL,
	"provider_dispute_id" text NOT NULL,
	"deposit_id" bigint NOT NULL REFERENCES "deposits"("id"),
	"user_id" bigint NOT NULL REFERENCES "users"("id"),
	"status" text DEFAULT 'open' NOT NULL,
	"reason" text,
	-- EUR cents held: taken from the balance, and from the receivable for what was already spent.
	"amount_minor" bigint NOT NULL,
	"from_balance_minor" bigint NOT NULL,
	"from_receivable_minor" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "disputes_status_check" CHECK ("status" IN ('open', 'won', 'lost')),
	CONSTRAINT "disputes_amount_check" CHECK ("amount_minor" > 0 AND "from_balance_minor" >= 0 AND "from_receivable_minor" >= 0 AND "from_balance_minor" + "from_receivable_minor" = "amount_minor"),
	CONSTRAINT "disputes_closed_check" CHECK (("status" = 'open') = ("closed_at" IS NULL))
);--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_provider_dispute_idx" ON "disputes" ("provider", "provider_dispute_id");--> statement-breakpoint
CREATE INDEX "disputes_status_idx" ON "disputes" ("status", "id");--> statement-breakpoint
-- A deposit refunded by the provider (charge.refunded): once.
ALTER TABLE "deposits" ADD COLUMN "refunded_at" timestamp with time zone;
