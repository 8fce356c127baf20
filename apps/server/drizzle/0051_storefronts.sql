-- Storefronts (issue 34): a creator's arranged public profile. One row per creator who saved one; the
-- featured works apart, one row each in the creator's order (a deleted work leaves by its foreign key,
-- an unlisted or hidden one stays stored but is filtered out when shown).
CREATE TABLE "storefronts" (
  "creator_id" bigint PRIMARY KEY REFERENCES "users"("id") ON DELETE CASCADE,
  "headline" text NOT NULL DEFAULT '' CHECK (char_length("headline") <= 120),
  "banner_path" text,
  "links" jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof("links") = 'array' AND jsonb_array_length("links") <= 5),
  "updated_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE "storefront_works" (
  "creator_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "product_id" bigint NOT NULL REFERENCES "products"("id") ON DELETE CASCADE,
  "position" smallint NOT NULL CHECK ("position" BETWEEN 0 AND 5),
  PRIMARY KEY ("creator_id", "product_id"),
  UNIQUE ("creator_id", "position")
);
--> statement-breakpoint
CREATE INDEX "storefront_works_product_idx" ON "storefront_works" ("product_id");
