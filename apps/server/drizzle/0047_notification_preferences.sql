-- Notification preferences (issue 31 item 8): per user and kind, whether the bell rings and whether an
-- e-mail goes out. No row means both are on; a row is written only when the user changes a kind.
CREATE TABLE "notification_preferences" (
  "user_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "kind" text NOT NULL CHECK ("kind" IN ('sale_made', 'refund_requested', 'refund_status')),
  "bell" boolean NOT NULL DEFAULT true,
  "email" boolean NOT NULL DEFAULT true,
  "updated_at" timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY ("user_id", "kind")
);
