-- VAT on a paid chat image (issue 33). An unlock is a sale like an order's line: the tax of the buyer
-- is decided when they pay, the VAT part is carved out of what they pay and owed to
-- vat:payable:<tax_country>, and the unlock keeps these figures as it was sold (a refund gives back
-- exactly them; the One-Stop Shop report and the reconciliation read them). `paid_minor` is what the
-- buyer paid: the agreed price, or its net under reverse charge. Unlocks paid before this stay at 0 VAT.
ALTER TABLE "chat_messages" ADD COLUMN "paid_minor" bigint;
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "vat_minor" bigint NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "tax_country" text;
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "tax_rate_bp" integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "reverse_charge" boolean NOT NULL DEFAULT false;
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "buyer_vat_number" text;
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "tax_evidence" jsonb;
--> statement-breakpoint
UPDATE "chat_messages" SET "paid_minor" = "price_minor" WHERE "unlocked_at" IS NOT NULL;
--> statement-breakpoint
-- What the buyer paid = VAT + the seller's share + the commission (as an order's line, migration 0042).
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_vat_check" CHECK ("vat_minor" >= 0);
--> statement-breakpoint
ALTER TABLE "chat_messages" DROP CONSTRAINT "chat_messages_split_check";
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_split_check"
  CHECK (("seller_minor" IS NULL) = ("commission_minor" IS NULL)
    AND ("seller_minor" IS NULL OR "seller_minor" + "commission_minor" + "vat_minor" = coalesce("paid_minor", "price_minor")));
