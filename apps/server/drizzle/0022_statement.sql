-- The balance statement (issue 18) names a purchase by its order: found from the journal transaction.
CREATE INDEX IF NOT EXISTS "orders_ledger_transaction_idx" ON "orders" ("ledger_transaction_id");
