-- Seller analytics and the followers' weekly digest (issue 20).
-- Views are counted per product per day. A visitor is known only for the day, by a hash salted with that
-- day's random salt (dropped with its visitors after the day), so a view is counted at most once per
-- visitor, product and day, and no address or session is stored.
CREATE TABLE "product_views" (
  "product_id" bigint NOT NULL REFERENCES "products"("id") ON DELETE CASCADE,
  "day" date NOT NULL,
  "views" integer NOT NULL DEFAULT 0 CHECK ("views" >= 0),
  PRIMARY KEY ("product_id", "day")
);
--> statement-breakpoint
CREATE INDEX "product_views_day_idx" ON "product_views" ("day");
--> statement-breakpoint
CREATE TABLE "product_view_visitors" (
  "day" date NOT NULL,
  "product_id" bigint NOT NULL REFERENCES "products"("id") ON DELETE CASCADE,
  "visitor" text NOT NULL,
  PRIMARY KEY ("day", "product_id", "visitor")
);
--> statement-breakpoint
CREATE TABLE "view_salts" (
  "day" date PRIMARY KEY,
  "salt" text NOT NULL
);
--> statement-breakpoint
-- A creator's sales are read by seller.
CREATE INDEX "order_items_seller_idx" ON "order_items" ("seller_id", "order_id");
--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" ("created_at");
--> statement-breakpoint
-- The weekly e-mail digest of followed creators' new works: on unless the user turns it off.
ALTER TABLE "users" ADD COLUMN "weekly_digest" boolean NOT NULL DEFAULT true;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "digest_sent_at" timestamp with time zone;
