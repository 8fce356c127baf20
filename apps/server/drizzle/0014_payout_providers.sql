-- Payout providers (issue 17): the provider is called after the commit, by the payout.settle job keyed by
-- the payout's id, and a payout may pay for something other than an offer (creator withdrawals later).
--
-- A card number never reaches this table: before the transaction the provider turns the card (or the
-- IBAN, for Stripe) into a token, and the row keeps that token with the brand and last four digits.
-- The sandbox's token says how the sandbox payout will end; Stripe's is a tok_... it attaches to the
-- creator's connected account. The SEPA IBAN stays encrypted as before.
ALTER TABLE "payouts" ADD COLUMN "kind" text DEFAULT 'offer' NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "offer_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_offer_kind_check" CHECK ("kind" <> 'offer' OR "offer_id" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "destination_token" text;--> statement-breakpoint
-- Stripe Connect: the creator's connected account the transfer went to (reused for the next payout).
ALTER TABLE "payouts" ADD COLUMN "provider_account" text;--> statement-breakpoint
-- The manual provider: the bank transfer's reference staff gave when marking the payout paid.
ALTER TABLE "payouts" ADD COLUMN "transfer_reference" text;--> statement-breakpoint
CREATE INDEX "payouts_user_provider_idx" ON "payouts" ("user_id", "provider", "id");--> statement-breakpoint
-- Card payouts of the sandbox still waiting for their job: the outcome their old reference named.
UPDATE "payouts" SET "destination_token" = 'sbx_card_' || (CASE WHEN "provider_ref" LIKE 'sbx_po_fail_%' THEN 'fail' ELSE 'ok' END) || '_legacy'
  WHERE "provider" = 'sandbox' AND "method" = 'card' AND "status" = 'processing';--> statement-breakpoint
-- Their jobs get the key new ones carry, so the back office sees that a job still holds them.
UPDATE "jobs" SET "singleton_key" = 'payout:' || ("payload"->>'payoutId')
  WHERE "name" = 'payout.settle' AND "state" IN ('pending', 'running') AND "singleton_key" IS NULL;
