-- Issue 30 (money edges). A payout whose job gave up may have been executed by the provider: it waits in
-- 'needs_review' with the provider's state unknown until a payout.reconcile job asks the provider
-- ('paid' or 'not_paid'); only then may staff mark it failed. Such a payout is still in flight.
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_status_check";--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_status_check" CHECK ("status" IN ('processing', 'needs_review', 'paid', 'failed'));--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "provider_state" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_provider_state_check" CHECK ("provider_state" IS NULL OR "provider_state" IN ('unknown', 'paid', 'not_paid'));--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "provider_checked_at" timestamp with time zone;--> statement-breakpoint
DROP INDEX "payouts_one_processing_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_processing_idx" ON "payouts" USING btree ("offer_id") WHERE status IN ('processing', 'needs_review');--> statement-breakpoint
DROP INDEX "payouts_one_withdrawal_in_flight_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_withdrawal_in_flight_idx" ON "payouts" USING btree ("user_id") WHERE kind = 'withdrawal' AND status IN ('processing', 'needs_review');
--> statement-breakpoint
-- A payment event whose amount or currency does not match its deposit credits nothing: the deposit is
-- flagged for staff with what the provider reported (no personal data), shown on the back office's money screen.
ALTER TABLE "deposits" ADD COLUMN "flagged_reason" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "flagged_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "deposits_flagged_idx" ON "deposits" USING btree ("flagged_at", "id") WHERE flagged_at IS NOT NULL;
