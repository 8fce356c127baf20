-- Issue 29, item 7: a generation finished after its buyer's request had ended is told by a
-- notification, once; this is when it was (null: the request that asked delivered it, or not yet).
ALTER TABLE "generations" ADD COLUMN "buyer_told_at" timestamp with time zone;--> statement-breakpoint
-- The buyer's list of their generations, newest first.
CREATE INDEX "generations_user_list_idx" ON "generations" ("user_id", "id" DESC);--> statement-breakpoint
DROP INDEX IF EXISTS "generations_user_idx";--> statement-breakpoint
-- Issue 29, item 8: a dispute holds the amount the provider's event disputes (converted to EUR cents
-- as the payment was), never more than what of its payment no other dispute holds: a second dispute
-- id for the same payment may hold nothing (amount 0). The provider's own amount is kept as it came.
ALTER TABLE "disputes" ADD COLUMN "disputed_minor" bigint;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "disputed_currency" text;--> statement-breakpoint
ALTER TABLE "disputes" DROP CONSTRAINT "disputes_amount_check";--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_amount_check" CHECK ("amount_minor" >= 0 AND "from_balance_minor" >= 0 AND "from_receivable_minor" >= 0 AND "from_balance_minor" + "from_receivable_minor" = "amount_minor");--> statement-breakpoint
CREATE INDEX "disputes_deposit_idx" ON "disputes" ("deposit_id");
