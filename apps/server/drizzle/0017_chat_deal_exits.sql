-- Issue 17 hole 8: the chat deal's exits. Every deal move counts up deal_step; a deal's expiry job
-- (one per wait, 14 days on) closes the deal only if the chat is still in the wait it was made for.
ALTER TABLE "chats" ADD COLUMN "deal_step" integer NOT NULL DEFAULT 0;
