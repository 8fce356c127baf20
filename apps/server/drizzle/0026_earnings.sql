-- Creator earnings (issue 19): a creator's share of a sale is credited to their pending earnings, a job
-- releases it to available earnings after the clearing period, and available earnings may be spent or
-- withdrawn (a payout of kind 'withdrawal'). A receivable (may go below zero) is where a later refund
-- takes what pending and available no longer hold.
--
-- The earnings accounts are per creator: `owner_id` names them, `code` is 'earnings:pending:<id>',
-- 'earnings:available:<id>' or 'receivable:<id>' (user_id stays the balance account's alone). The
-- money on its way out in a withdrawal sits in one system account 'withdrawals:in-flight'.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("kind" IN ('user', 'platform_revenue', 'provider_clearing', 'earnings_pending', 'earnings_available', 'receivable', 'withdrawal_clearing'));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "owner_id" bigint REFERENCES "users"("id");--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_earnings_owner_check" CHECK (("kind" IN ('earnings_pending', 'earnings_available', 'receivable')) = ("owner_id" IS NOT NULL));--> statement-breakpoint
-- Only the receivable of the new kinds may go below zero; earnings and money in flight may not.
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_earnings_not_negative" CHECK ("kind" NOT IN ('earnings_pending', 'earnings_available', 'withdrawal_clearing') OR NOT "allow_negative");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_owner_kind_idx" ON "ledger_accounts" ("owner_id", "kind") WHERE "owner_id" IS NOT NULL;--> statement-breakpoint
-- Withdrawals: a payout of kind 'withdrawal' has no offer; at most one is in flight per creator.
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_kind_check" CHECK ("kind" IN ('offer', 'withdrawal'));--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_withdrawal_in_flight_idx" ON "payouts" ("user_id") WHERE "kind" = 'withdrawal' AND "status" = 'processing';--> statement-breakpoint
CREATE INDEX "payouts_user_kind_idx" ON "payouts" ("user_id", "kind", "id");--> statement-breakpoint
-- Listings: the creator lists the work under their own name at their price ('listing', no payout: the
-- money comes through sales), or sells it to the platform ('buyout', as before and the default).
ALTER TABLE "offers" ADD COLUMN "deal_type" text DEFAULT 'buyout' NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_deal_type_check" CHECK ("deal_type" IN ('listing', 'buyout'));
