-- Licence tiers (issue 34). A work sells under up to three licences: personal, commercial (the licence
-- every sale had before, at products.price_minor) and extended (merchandise, resale). Personal and
-- extended have their own prices, null when the creator does not offer them.
ALTER TABLE "products" ADD COLUMN "personal_price_minor" bigint CHECK ("personal_price_minor" IS NULL OR "personal_price_minor" >= 50);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "extended_price_minor" bigint CHECK ("extended_price_minor" IS NULL OR "extended_price_minor" >= 50);--> statement-breakpoint
-- The tier each line sold; an upgrade is a line of its own that sells the difference (`upgraded_from`:
-- the tier it replaced, which a refund of that line gives back).
ALTER TABLE "order_items" ADD COLUMN "licence_tier" text NOT NULL DEFAULT 'commercial' CHECK ("licence_tier" IN ('personal', 'commercial', 'extended'));--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "upgraded_from" text CHECK ("upgraded_from" IN ('personal', 'commercial'));--> statement-breakpoint
-- The tier the buyer owns now (moved by an upgrade and by its refund).
ALTER TABLE "user_products" ADD COLUMN "licence_tier" text NOT NULL DEFAULT 'commercial' CHECK ("licence_tier" IN ('personal', 'commercial', 'extended'));--> statement-breakpoint
-- The tier a cart line will be bought at.
ALTER TABLE "cart_items" ADD COLUMN "licence_tier" text NOT NULL DEFAULT 'commercial' CHECK ("licence_tier" IN ('personal', 'commercial', 'extended'));
