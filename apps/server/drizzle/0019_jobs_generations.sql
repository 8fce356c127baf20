-- Issue 17 operations: a job's own timeout, and schedules for recurring jobs shared by every app server.
-- A claimed job carries the moment its attempt times out; past it, any server puts it back (or fails it).
ALTER TABLE "jobs" ADD COLUMN "timeout_at" timestamp with time zone;--> statement-breakpoint
UPDATE "jobs" SET "timeout_at" = "locked_at" + interval '15 minutes' WHERE "state" = 'running';--> statement-breakpoint
CREATE INDEX "jobs_timeout_idx" ON "jobs" USING btree ("timeout_at") WHERE "jobs"."state" = 'running';--> statement-breakpoint
CREATE INDEX "jobs_state_idx" ON "jobs" USING btree ("state", "id");--> statement-breakpoint
-- One row per recurring job: the server whose update moves next_run_at enqueues that period's run.
CREATE TABLE "job_schedules" (
	"name" text PRIMARY KEY NOT NULL,
	"every_seconds" integer NOT NULL CHECK ("every_seconds" > 0),
	"next_run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_run_at" timestamp with time zone
);--> statement-breakpoint
-- Issue 17 hole 4: an image generation is a row written with its charge and its job in one
-- transaction; the job ends it as an image (done) or a refund (refunded; failed when nothing was charged).
CREATE TABLE "generations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "generations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint REFERENCES "users"("id") ON DELETE SET NULL,
	"prompt_id" bigint REFERENCES "products"("id") ON DELETE SET NULL,
	"prompt_text" text NOT NULL,
	"format" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"price_minor" bigint NOT NULL,
	"charge_transaction_id" bigint REFERENCES "ledger_transactions"("id"),
	"refund_transaction_id" bigint REFERENCES "ledger_transactions"("id"),
	"status" text DEFAULT 'pending' NOT NULL CHECK ("status" in ('pending', 'done', 'refunded', 'failed')),
	"result_key" text,
	"generator" text,
	"settle_by" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "generations_pending_idx" ON "generations" USING btree ("settle_by") WHERE "generations"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "generations_user_idx" ON "generations" USING btree ("user_id");
