-- A card payment can pay for something besides the balance (issue 11: a locked chat image whose
-- buyer's balance is short). `purpose` names it, e.g. {"kind":"chat_unlock","chatId":1,"messageId":2};
-- when the provider's webhook credits the deposit, the purchase it names runs in the same transaction.
-- Null for an ordinary Add Funds deposit.
ALTER TABLE "deposits" ADD COLUMN "purpose" jsonb;
