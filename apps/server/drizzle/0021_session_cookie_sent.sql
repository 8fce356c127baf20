-- Issue 18 bug 2: sliding sessions. cookie_sent_at is when the session cookie (and its XSRF cookie)
-- last went to the browser with a fresh 2 h lifetime; a request past half of that re-sends them.
-- Sessions open at upgrade count from their creation, so an old cookie is renewed on its next call.
ALTER TABLE "sessions" ADD COLUMN "cookie_sent_at" timestamp with time zone;--> statement-breakpoint
UPDATE "sessions" SET "cookie_sent_at" = "created_at";--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "cookie_sent_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "cookie_sent_at" SET DEFAULT now();
--> statement-breakpoint
-- Issue 18 bug 3: a block ends the account's sessions but keeps each as a guest session that
-- remembers whose it was, so that browser's next call is told the account is blocked (not "sign in").
ALTER TABLE "sessions" ADD COLUMN "blocked_user_id" bigint;
