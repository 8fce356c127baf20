-- Listing management (issue 19): a creator may take their approved listing out of the shop ('unlisted')
-- and put it back ('approved'); a price change above 50% sends it back to review ('pending').
ALTER TABLE "offers" DROP CONSTRAINT "offers_status_check";--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_status_check" CHECK ("status" IN ('pending', 'offer', 'approved', 'declined', 'declined_by_service', 'declined_by_user', 'payout_processing', 'paid', 'unlisted'));
