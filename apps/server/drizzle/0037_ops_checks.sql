-- The last answer of a scheduled operational check (the ledger reconciliation), one row per check,
-- so every app server's metrics scrape reports it, not only the server whose job ran it.
CREATE TABLE IF NOT EXISTS "ops_checks" (
	"name" text PRIMARY KEY NOT NULL,
	"ok" boolean NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
