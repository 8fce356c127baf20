-- Issue 17 hole 6: one exact conversion. A deposit's currency_amount_minor is counted in its
-- currency's own decimals (whole yen for JPY), as prices are, instead of hundredths of every
-- currency; and a currency's decimals say whether it has fractions, so whole_only goes.
UPDATE "deposits" AS d
SET "currency_amount_minor" = round(d."currency_amount_minor" * power(10::numeric, c."decimals" - 2))::bigint
FROM "currencies" AS c
WHERE c."code" = d."currency" AND c."decimals" <> 2;--> statement-breakpoint
ALTER TABLE "currencies" DROP COLUMN IF EXISTS "whole_only";
