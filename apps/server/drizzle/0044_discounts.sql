-- Discount codes and sales (issue 34). A creator's code covers their own works (product_ids, empty:
-- all of them); a platform code (creator_id null) is made by staff and covers platform-owned works.
-- `automatic` applies without a code during its window (a sale). `uses` is the counter max_uses is
-- held by: it moves in the purchase's transaction (domain rows before the ledger's accounts), only for
-- a discount with max_uses; how often a discount was used is counted from order_discounts.
CREATE TABLE "discounts" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "creator_id" bigint REFERENCES "users"("id") ON DELETE CASCADE,
  "code" text NOT NULL CHECK ("code" ~ '^[A-Z0-9-]{4,32}$'),
  "kind" text NOT NULL CHECK ("kind" IN ('percent', 'fixed')),
  "value" bigint NOT NULL CHECK ("value" > 0),
  "product_ids" bigint[] NOT NULL DEFAULT '{}',
  "starts_at" timestamp with time zone,
  "ends_at" timestamp with time zone,
  "max_uses" integer CHECK ("max_uses" > 0),
  "uses" integer NOT NULL DEFAULT 0,
  "automatic" boolean NOT NULL DEFAULT false,
  "paused" boolean NOT NULL DEFAULT false,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "discounts_percent_check" CHECK ("kind" <> 'percent' OR "value" BETWEEN 1 AND 90),
  CONSTRAINT "discounts_window_check" CHECK ("starts_at" IS NULL OR "ends_at" IS NULL OR "starts_at" < "ends_at"),
  CONSTRAINT "discounts_uses_check" CHECK ("max_uses" IS NULL OR "uses" <= "max_uses")
);--> statement-breakpoint
-- Codes are stored in capitals: unique per creator (and once among platform codes), whatever the case typed.
CREATE UNIQUE INDEX "discounts_creator_code_idx" ON "discounts" (coalesce("creator_id", 0), "code");--> statement-breakpoint
CREATE INDEX "discounts_code_idx" ON "discounts" ("code");--> statement-breakpoint
CREATE INDEX "discounts_automatic_idx" ON "discounts" (coalesce("creator_id", 0)) WHERE "automatic" AND NOT "paused";--> statement-breakpoint
-- What a discount took off each bought line (an item, a prompt, a pack), written in the purchase's transaction.
CREATE TABLE "order_discounts" (
  "order_id" bigint NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
  "product_id" bigint NOT NULL REFERENCES "products"("id"),
  "discount_id" bigint REFERENCES "discounts"("id") ON DELETE SET NULL,
  "code" text NOT NULL,
  "automatic" boolean NOT NULL,
  "list_price_minor" bigint NOT NULL CHECK ("list_price_minor" > 0),
  "discount_minor" bigint NOT NULL CHECK ("discount_minor" > 0 AND "discount_minor" < "list_price_minor"),
  PRIMARY KEY ("order_id", "product_id")
);--> statement-breakpoint
CREATE INDEX "order_discounts_discount_idx" ON "order_discounts" ("discount_id");--> statement-breakpoint
-- A sale shows on product cards: the catalogue's caches are dropped when a discount changes.
CREATE TRIGGER discounts_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON discounts FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('catalog');
--> statement-breakpoint
-- The one price rule, for SQL readers (product cards): the same as `discountedPrice` in features/discounts.
-- A percent takes the floor of its share; nothing goes below 0.50 € (50 cents), and a price at or below it stays.
CREATE FUNCTION discount_price(list bigint, kind text, value bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN list <= 50 THEN list
              ELSE greatest(50, list - CASE WHEN kind = 'percent' THEN (list * value) / 100 ELSE value END) END
$$;
