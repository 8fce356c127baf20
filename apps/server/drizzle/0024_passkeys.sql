-- Issue 21: passkeys (WebAuthn). One row per credential; the counter is the authenticator's
-- signature counter, which must rise with each sign-in when it is not zero.
CREATE TABLE "passkeys" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "user_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "credential_id" text NOT NULL,
  "public_key" text NOT NULL,
  "counter" bigint NOT NULL DEFAULT 0 CHECK ("counter" >= 0),
  "transports" text[] NOT NULL DEFAULT '{}',
  "name" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "last_used_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "passkeys_credential_idx" ON "passkeys" ("credential_id");--> statement-breakpoint
CREATE INDEX "passkeys_user_idx" ON "passkeys" ("user_id");--> statement-breakpoint
-- One challenge per ceremony, deleted by its answer (single use) and dead after 5 minutes.
-- bound_to: 'session:<session id>' to add a passkey, 'cookie:<nonce of a signed cookie>' to sign in.
CREATE TABLE "webauthn_challenges" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "challenge" text NOT NULL,
  "purpose" text NOT NULL CHECK ("purpose" IN ('register', 'sign_in')),
  "bound_to" text NOT NULL,
  "user_id" bigint REFERENCES "users"("id") ON DELETE CASCADE,
  "expires_at" timestamp with time zone NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);--> statement-breakpoint
CREATE UNIQUE INDEX "webauthn_challenges_challenge_idx" ON "webauthn_challenges" ("challenge");--> statement-breakpoint
CREATE INDEX "webauthn_challenges_bound_idx" ON "webauthn_challenges" ("bound_to");--> statement-breakpoint
CREATE INDEX "webauthn_challenges_expires_idx" ON "webauthn_challenges" ("expires_at");--> statement-breakpoint
-- A passkey sign-in is a fresh second factor. Migration 0023 (two-factor sign-in) adds the same
-- column; IF NOT EXISTS lets the two migrations apply in either order.
ALTER TABLE "sessions" ADD COLUMN IF NOT EXISTS "second_factor_at" timestamp with time zone;
