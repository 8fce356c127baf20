-- Trust and discovery (issue 20): reviews with their aggregate on products, reports, favourites and follows.
-- A product's rating is kept as a sum and a count of its visible reviews, moved in the same
-- transaction as each review write (features/reviews), never recomputed per request.
ALTER TABLE "products" ADD COLUMN "rating_sum" integer NOT NULL DEFAULT 0 CHECK ("rating_sum" >= 0);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "rating_count" integer NOT NULL DEFAULT 0 CHECK ("rating_count" >= 0);
--> statement-breakpoint
CREATE TABLE "reviews" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "product_id" bigint NOT NULL REFERENCES "products"("id") ON DELETE CASCADE,
  "user_id" bigint NOT NULL REFERENCES "users"("id"),
  "rating" smallint NOT NULL CHECK ("rating" BETWEEN 1 AND 5),
  "text" text NOT NULL DEFAULT '' CHECK (char_length("text") <= 2000),
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "edited_at" timestamp with time zone,
  "hidden_at" timestamp with time zone,
  "hidden_reason" text,
  "reply_text" text CHECK (char_length("reply_text") <= 2000),
  "reply_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_product_user_idx" ON "reviews" ("product_id", "user_id");
--> statement-breakpoint
CREATE INDEX "reviews_product_visible_idx" ON "reviews" ("product_id", "created_at") WHERE "hidden_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "reviews_user_idx" ON "reviews" ("user_id");
--> statement-breakpoint
CREATE TABLE "review_reports" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "review_id" bigint NOT NULL REFERENCES "reviews"("id") ON DELETE CASCADE,
  "user_id" bigint NOT NULL REFERENCES "users"("id"),
  "reason" text NOT NULL DEFAULT '',
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX "review_reports_review_user_idx" ON "review_reports" ("review_id", "user_id");
--> statement-breakpoint
CREATE TABLE "favourites" (
  "user_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "product_id" bigint NOT NULL REFERENCES "products"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY ("user_id", "product_id")
);
--> statement-breakpoint
CREATE TABLE "follows" (
  "follower_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "creator_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY ("follower_id", "creator_id"),
  CHECK ("follower_id" <> "creator_id")
);
--> statement-breakpoint
CREATE INDEX "follows_creator_idx" ON "follows" ("creator_id");
