-- Issue 21: account security. A session remembers a coarse hint of the address it started from
-- (never the full address) and when its user last proved a second factor (step-up checks it).
ALTER TABLE "sessions" ADD COLUMN "ip_hint" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "second_factor_at" timestamp with time zone;--> statement-breakpoint
-- One TOTP secret per user, AES-256-GCM encrypted; enabled_at is null while enrolment is pending.
-- last_used_step is the 30 s step of the last accepted code: a code is never accepted twice.
CREATE TABLE "user_totp" (
	"user_id" bigint PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"secret_enc" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_used_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- Single-use recovery codes, stored as sha256 hashes only.
CREATE TABLE "user_recovery_codes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"user_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "user_recovery_codes_user_idx" ON "user_recovery_codes" ("user_id");
