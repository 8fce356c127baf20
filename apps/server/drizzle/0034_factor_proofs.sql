-- Issue 29: changing a factor needs a fresh proof in the session. `proved_at` is when this session
-- last proved who it is by any means (a password sign-in, a password step-up, or a second factor);
-- `second_factor_at` stays the second factor alone. A password sign-in of an account with a second
-- factor is finished by a passkey too, so a challenge may be issued for that step.
ALTER TABLE "sessions" ADD COLUMN IF NOT EXISTS "proved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webauthn_challenges" DROP CONSTRAINT IF EXISTS "webauthn_challenges_purpose_check";--> statement-breakpoint
ALTER TABLE "webauthn_challenges" ADD CONSTRAINT "webauthn_challenges_purpose_check" CHECK ("purpose" IN ('register', 'sign_in', 'step_up', 'sign_in_2fa'));
