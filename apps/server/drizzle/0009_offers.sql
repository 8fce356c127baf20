-- Offers (a creator's work offered to the platform), every transition of its state machine, and payouts.
CREATE TABLE "offers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY NOT NULL,
	"user_id" bigint NOT NULL REFERENCES "users"("id"),
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category_id" bigint REFERENCES "categories"("id"),
	"user_price_minor" bigint NOT NULL,
	"service_price_minor" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"status_note" text,
	"ai_generated" boolean DEFAULT true NOT NULL,
	"keywords" text DEFAULT '' NOT NULL,
	"doc_type" text NOT NULL,
	"file_type" text NOT NULL,
	"file_name" text NOT NULL,
	"original_path" text NOT NULL,
	"preview_path" text,
	"product_id" bigint REFERENCES "products"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offers_status_check" CHECK ("status" IN ('pending', 'offer', 'approved', 'declined', 'declined_by_service', 'declined_by_user', 'payout_processing', 'paid')),
	CONSTRAINT "offers_user_price_check" CHECK ("user_price_minor" > 0),
	CONSTRAINT "offers_service_price_check" CHECK ("service_price_minor" IS NULL OR "service_price_minor" > 0)
);
--> statement-breakpoint
CREATE INDEX "offers_user_idx" ON "offers" USING btree ("user_id", "id");
--> statement-breakpoint
CREATE INDEX "offers_status_idx" ON "offers" USING btree ("status", "id");
--> statement-breakpoint
CREATE TABLE "offer_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY NOT NULL,
	"offer_id" bigint NOT NULL REFERENCES "offers"("id"),
	"from_status" text,
	"to_status" text NOT NULL,
	"actor" text NOT NULL,
	"actor_id" bigint REFERENCES "users"("id"),
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_events_actor_check" CHECK ("actor" IN ('creator', 'staff', 'system'))
);
--> statement-breakpoint
CREATE INDEX "offer_events_offer_idx" ON "offer_events" USING btree ("offer_id", "id");
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY NOT NULL,
	"offer_id" bigint NOT NULL REFERENCES "offers"("id"),
	"user_id" bigint NOT NULL REFERENCES "users"("id"),
	"method" text NOT NULL,
	"provider" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"iban_masked" text,
	"iban_encrypted" text,
	"holder_name" text NOT NULL,
	"contact" jsonb NOT NULL,
	"provider_ref" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "payouts_method_check" CHECK ("method" IN ('card', 'sepa')),
	CONSTRAINT "payouts_status_check" CHECK ("status" IN ('processing', 'paid', 'failed')),
	CONSTRAINT "payouts_amount_check" CHECK ("amount_minor" > 0),
	CONSTRAINT "payouts_card_last4_check" CHECK ("card_last4" IS NULL OR "card_last4" ~ '^[0-9]{4}$')
);
--> statement-breakpoint
CREATE INDEX "payouts_status_idx" ON "payouts" USING btree ("status", "id");
--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_processing_idx" ON "payouts" USING btree ("offer_id") WHERE status = 'processing';
