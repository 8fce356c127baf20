-- Issue 21: a passkey proves the second factor again before a sensitive change (step-up), so a
-- challenge may also be issued for that ceremony, bound to the session that asked for it.
ALTER TABLE "webauthn_challenges" DROP CONSTRAINT IF EXISTS "webauthn_challenges_purpose_check";--> statement-breakpoint
ALTER TABLE "webauthn_challenges" ADD CONSTRAINT "webauthn_challenges_purpose_check" CHECK ("purpose" IN ('register', 'sign_in', 'step_up'));
