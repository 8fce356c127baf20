-- The back office (issue 10): the staff audit log, blocked accounts, handled contact messages.
--
-- Every staff action (each mutating /api/admin call) writes one audit_log row in the same database
-- transaction as the change itself, so a change without its record (or a record of a change that
-- rolled back) cannot exist. The log is append-only, like the ledger's journal.
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"staff_id" bigint NOT NULL REFERENCES "users"("id"),
	-- What was done, e.g. 'offer.counter', 'payout.complete', 'user.block', 'ledger.adjustment'.
	"action" text NOT NULL,
	-- What it was done to: 'offer', 'payout', 'product', 'user', 'ledger_account', 'contact_message'.
	"subject_type" text NOT NULL,
	"subject_id" bigint NOT NULL,
	-- The subject's fields before and after (only those the action touched); null when not applicable.
	"before" jsonb,
	"after" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "audit_log_staff_idx" ON "audit_log" ("staff_id", "id");--> statement-breakpoint
CREATE INDEX "audit_log_subject_idx" ON "audit_log" ("subject_type", "subject_id", "id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only (% on %)', TG_OP, TG_TABLE_NAME;
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();--> statement-breakpoint
-- A blocked account: its sessions are deleted when it is blocked, and sign-in is refused while set.
ALTER TABLE "users" ADD COLUMN "blocked_at" timestamp with time zone;--> statement-breakpoint
-- A contact message staff have dealt with (answered or set aside).
ALTER TABLE "contact_messages" ADD COLUMN "handled_at" timestamp with time zone;
