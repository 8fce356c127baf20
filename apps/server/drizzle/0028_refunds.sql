-- Buyer protection (issue 19): refund requests of an order item or a paid chat unlock. A request's
-- life is features/refunds/refund-states.ts: open -> responded -> refunded | rejected. A refund writes
-- one ledger transaction (`refund_transaction_id`), marks the item refunded (its download and the
-- unlocked original then answer 410) and, once every item of an order is refunded, the order.
CREATE TABLE "refund_requests" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "buyer_id" bigint NOT NULL REFERENCES "users"("id"),
  "creator_id" bigint NOT NULL REFERENCES "users"("id"),
  "order_id" bigint REFERENCES "orders"("id"),
  "product_id" bigint REFERENCES "products"("id"),
  "chat_message_id" bigint REFERENCES "chat_messages"("id"),
  "amount_minor" bigint NOT NULL CHECK ("amount_minor" >= 0),
  "reason" text NOT NULL CHECK ("reason" IN ('not_as_described', 'broken_file', 'not_received', 'other')),
  "message" text NOT NULL,
  "status" text NOT NULL DEFAULT 'open' CHECK ("status" IN ('open', 'responded', 'refunded', 'rejected')),
  "creator_response" text,
  "responded_at" timestamp with time zone,
  "staff_note" text,
  "resolved_by" bigint REFERENCES "users"("id"),
  "resolved_at" timestamp with time zone,
  "refund_transaction_id" bigint REFERENCES "ledger_transactions"("id"),
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "refund_requests_subject_check" CHECK (("order_id" IS NOT NULL AND "product_id" IS NOT NULL AND "chat_message_id" IS NULL) OR ("order_id" IS NULL AND "product_id" IS NULL AND "chat_message_id" IS NOT NULL))
);--> statement-breakpoint
-- One request in progress per item, and one refund per item ever.
CREATE UNIQUE INDEX "refund_requests_item_active_idx" ON "refund_requests" ("order_id", "product_id") WHERE "status" IN ('open', 'responded') AND "order_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_requests_unlock_active_idx" ON "refund_requests" ("chat_message_id") WHERE "status" IN ('open', 'responded') AND "chat_message_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_requests_item_refunded_idx" ON "refund_requests" ("order_id", "product_id") WHERE "status" = 'refunded' AND "order_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_requests_unlock_refunded_idx" ON "refund_requests" ("chat_message_id") WHERE "status" = 'refunded' AND "chat_message_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "refund_requests_buyer_idx" ON "refund_requests" ("buyer_id", "id");--> statement-breakpoint
CREATE INDEX "refund_requests_creator_idx" ON "refund_requests" ("creator_id", "id");--> statement-breakpoint
CREATE INDEX "refund_requests_status_idx" ON "refund_requests" ("status", "id");--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_check";--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("status" IN ('success', 'pending', 'failed', 'refunded'));
