-- Notice and action, statements of reasons and appeals (issue 33, Digital Services Act), and trader
-- details with their history (DSA traceability, DAC7).
CREATE TABLE "reports" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "subject_type" text NOT NULL CHECK ("subject_type" IN ('product', 'review', 'user', 'message')),
  "subject_id" bigint NOT NULL,
  -- Whose content it is (the product's creator, the review's writer, the profile, the message's sender), fixed at report time.
  "author_id" bigint REFERENCES "users"("id"),
  "reporter_id" bigint REFERENCES "users"("id"),
  "reporter_email" text NOT NULL,
  "reporter_name" text,
  "reason" text NOT NULL CHECK ("reason" IN ('illegal_content', 'copyright', 'counterfeit', 'hate_or_harassment', 'adult_content', 'spam', 'other')),
  "explanation" text NOT NULL,
  "good_faith" boolean NOT NULL,
  "status" text NOT NULL DEFAULT 'open' CHECK ("status" IN ('open', 'decided', 'appealed')),
  "decision" text CHECK ("decision" IN ('remove', 'restrict', 'no_action')),
  "ground" text CHECK ("ground" IN ('law', 'terms')),
  "decision_explanation" text,
  "decided_by" bigint REFERENCES "users"("id"),
  "decided_at" timestamp with time zone,
  "appeal_message" text,
  "appealed_at" timestamp with time zone,
  "appeal_outcome" text CHECK ("appeal_outcome" IN ('upheld', 'reversed')),
  "appeal_explanation" text,
  "appeal_decided_by" bigint REFERENCES "users"("id"),
  "appeal_decided_at" timestamp with time zone,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "reports_decided_check" CHECK (("status" = 'open') = ("decided_at" IS NULL)),
  CONSTRAINT "reports_appealed_check" CHECK ("status" <> 'appealed' OR "appealed_at" IS NOT NULL)
);--> statement-breakpoint
CREATE INDEX "reports_status_subject_idx" ON "reports" ("status", "subject_type", "subject_id", "id");--> statement-breakpoint
CREATE INDEX "reports_author_idx" ON "reports" ("author_id", "id");--> statement-breakpoint
CREATE INDEX "reports_reporter_idx" ON "reports" ("reporter_id", "id");--> statement-breakpoint
CREATE INDEX "reports_created_idx" ON "reports" ("created_at");--> statement-breakpoint
-- A staff decision on content: null (as published), 'removed' (hidden everywhere) or 'restricted' (products: its buyers only).
ALTER TABLE "products" ADD COLUMN "moderation" text CHECK ("moderation" IN ('removed', 'restricted'));--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "moderation" text CHECK ("moderation" IN ('removed'));--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "moderation" text CHECK ("moderation" IN ('removed'));--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "moderation" text CHECK ("moderation" IN ('removed'));--> statement-breakpoint
CREATE TABLE "seller_details" (
  "user_id" bigint PRIMARY KEY REFERENCES "users"("id"),
  "kind" text NOT NULL CHECK ("kind" IN ('individual', 'business')),
  "legal_name" text NOT NULL,
  "date_of_birth" date,
  "address_line1" text NOT NULL,
  "address_line2" text,
  "city" text NOT NULL,
  "post_code" text NOT NULL,
  "country" text NOT NULL CHECK ("country" ~ '^[A-Z]{2}$'),
  "tax_id" text NOT NULL,
  "vat_id" text,
  "registration_number" text,
  "updated_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "seller_details_individual_check" CHECK ("kind" <> 'individual' OR "date_of_birth" IS NOT NULL),
  CONSTRAINT "seller_details_business_check" CHECK ("kind" <> 'business' OR "registration_number" IS NOT NULL)
);--> statement-breakpoint
-- The details as they were before each change made after the seller's first sale (DAC7 asks who was paid).
CREATE TABLE "seller_details_history" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "user_id" bigint NOT NULL REFERENCES "users"("id"),
  "details" jsonb NOT NULL,
  "replaced_at" timestamp with time zone NOT NULL DEFAULT now()
);--> statement-breakpoint
CREATE INDEX "seller_details_history_user_idx" ON "seller_details_history" ("user_id", "id");
--> statement-breakpoint
-- A removed profile takes its works out of the shop: cached catalogue answers are dropped when it changes too.
DROP TRIGGER IF EXISTS users_catalog_changes ON users;--> statement-breakpoint
CREATE TRIGGER users_catalog_changes AFTER UPDATE OF name, surname, nickname, avatar_path, deleted_at, moderation ON users FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('catalog');
