ALTER TABLE "users" ADD COLUMN "last_seen_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "chats" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "sender_id" bigint NOT NULL REFERENCES "users"("id"),
  "recipient_id" bigint NOT NULL REFERENCES "users"("id"),
  "status" text NOT NULL DEFAULT 'active' CHECK ("status" IN ('active', 'price_proposed', 'generating', 'waiting_payment')),
  "deal_price_minor" bigint CHECK ("deal_price_minor" > 0),
  "blocked_by_sender" boolean NOT NULL DEFAULT false,
  "blocked_by_recipient" boolean NOT NULL DEFAULT false,
  "last_message_at" timestamp with time zone NOT NULL DEFAULT now(),
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  CHECK ("sender_id" <> "recipient_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "chats_pair_idx" ON "chats" (least("sender_id", "recipient_id"), greatest("sender_id", "recipient_id"));
--> statement-breakpoint
CREATE INDEX "chats_sender_idx" ON "chats" ("sender_id");
--> statement-breakpoint
CREATE INDEX "chats_recipient_idx" ON "chats" ("recipient_id");
--> statement-breakpoint
CREATE TABLE "chat_messages" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "chat_id" bigint NOT NULL REFERENCES "chats"("id") ON DELETE CASCADE,
  "user_id" bigint NOT NULL REFERENCES "users"("id"),
  "kind" text NOT NULL DEFAULT 'text',
  "body" text,
  "product_id" bigint REFERENCES "products"("id"),
  "attachment_key" text,
  "attachment_name" text,
  "preview_key" text,
  "is_locked" boolean NOT NULL DEFAULT false,
  "price_minor" bigint CHECK ("price_minor" > 0),
  "unlocked_at" timestamp with time zone,
  "read_at" timestamp with time zone,
  "digested_at" timestamp with time zone,
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "chat_messages_chat_idx" ON "chat_messages" ("chat_id", "id");
--> statement-breakpoint
CREATE INDEX "chat_messages_unread_idx" ON "chat_messages" ("chat_id") WHERE "read_at" IS NULL;
--> statement-breakpoint
CREATE TABLE "notifications" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "user_id" bigint NOT NULL REFERENCES "users"("id"),
  "kind" text NOT NULL,
  "text" text NOT NULL,
  "link" text,
  "chat_id" bigint REFERENCES "chats"("id") ON DELETE CASCADE,
  "data" jsonb NOT NULL DEFAULT '{}'::jsonb,
  "read_at" timestamp with time zone,
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" ("user_id", "id");
--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" ("user_id") WHERE "read_at" IS NULL;
