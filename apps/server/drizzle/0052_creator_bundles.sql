-- Creator bundles (issue 34). A creator proposes a bundle of 2 to 20 of their own listed works at a
-- price at least 10 % below the sum of their prices; staff approve it (it is published as a pack whose
-- author is the creator, so each sale pays the creator like any of their sales) or reject it with a
-- reason; the creator may withdraw it while it waits. The works are kept in the proposal's order.
CREATE TABLE "creator_bundles" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "creator_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "title" text NOT NULL,
  "description" text NOT NULL DEFAULT '',
  "product_ids" bigint[] NOT NULL,
  "price_minor" bigint NOT NULL CHECK ("price_minor" > 0),
  "status" text NOT NULL DEFAULT 'pending' CHECK ("status" IN ('pending', 'approved', 'rejected', 'withdrawn')),
  "reason" text,
  "pack_id" bigint REFERENCES "products"("id"),
  "reviewed_by" bigint REFERENCES "users"("id"),
  "reviewed_at" timestamp with time zone,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "creator_bundles_items_check" CHECK (cardinality("product_ids") BETWEEN 2 AND 20),
  CONSTRAINT "creator_bundles_pack_check" CHECK (("status" = 'approved') = ("pack_id" IS NOT NULL))
);--> statement-breakpoint
CREATE INDEX "creator_bundles_creator_idx" ON "creator_bundles" ("creator_id", "id");--> statement-breakpoint
CREATE INDEX "creator_bundles_status_idx" ON "creator_bundles" ("status", "id");
