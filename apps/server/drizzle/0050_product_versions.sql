-- Product updates (issue 34): the versions of a creator's listed work. Version 1 is the work as first
-- published (written when the first update arrives); a later one is published at once, or waits for
-- staff review when its file is of another type than the work's current file. The product row always
-- holds the latest published version's file, so the download and a pack's ZIP give it unchanged.
CREATE TABLE "product_versions" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "product_id" bigint NOT NULL REFERENCES "products"("id") ON DELETE CASCADE,
  "number" integer NOT NULL CHECK ("number" >= 1),
  "status" text NOT NULL CHECK ("status" IN ('published', 'pending_review', 'rejected')),
  "notes" text NOT NULL DEFAULT '',
  "file_type" text,
  "original_path" text,
  "original_name" text,
  "preview_path" text,
  "file_meta" jsonb,
  "prompt_text" text,
  "review_note" text,
  "reviewed_by" bigint REFERENCES "users"("id"),
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "published_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "product_versions_number_idx" ON "product_versions" ("product_id", "number");--> statement-breakpoint
CREATE INDEX "product_versions_review_idx" ON "product_versions" ("created_at") WHERE "status" = 'pending_review';--> statement-breakpoint
-- One row per buyer told of a version: the fan-out job skips whoever it already told, so a retry tells no one twice.
CREATE TABLE "product_version_notices" (
  "version_id" bigint NOT NULL REFERENCES "product_versions"("id") ON DELETE CASCADE,
  "user_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY ("version_id", "user_id")
);--> statement-breakpoint
ALTER TABLE "notification_preferences" DROP CONSTRAINT "notification_preferences_kind_check";--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_kind_check" CHECK ("kind" IN ('sale_made', 'refund_requested', 'refund_status', 'product_updated'));
