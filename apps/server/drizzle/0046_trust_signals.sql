-- Trust signals on a product page (issue 31 item 7): what the bought file is (format, size, pixels,
-- pages or words), measured once when the file arrives and kept beside the file's path; and the
-- indexes that count a work's sales (alone or inside a pack) without reading every order line.
ALTER TABLE "products" ADD COLUMN "file_meta" jsonb;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "file_meta" jsonb;--> statement-breakpoint
CREATE INDEX "order_items_product_idx" ON "order_items" ("product_id");--> statement-breakpoint
CREATE INDEX "order_items_pack_idx" ON "order_items" ("pack_id") WHERE "pack_id" IS NOT NULL;
