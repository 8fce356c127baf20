-- Issue 30 (the purchase bench: less work per sale). The journal's two checks run once per statement
-- instead of once per entry. Every journal transaction's entries are written by one statement, after
-- that statement locked their accounts in id order (ledger.ts chargeCtes), so:
--   * the cached balances move with one UPDATE of the locked rows (the CHECK on ledger_accounts still
--     refuses a user balance below zero), instead of one PL/pgSQL call and UPDATE per entry;
--   * each transaction the statement wrote to must sum to zero over all of its entries, checked when
--     the statement ends, instead of once per entry at commit.
DROP TRIGGER IF EXISTS ledger_entries_apply ON "ledger_entries";--> statement-breakpoint
DROP TRIGGER IF EXISTS ledger_entries_balanced ON "ledger_entries";--> statement-breakpoint
DROP FUNCTION IF EXISTS ledger_entries_apply();--> statement-breakpoint
DROP FUNCTION IF EXISTS ledger_entries_balanced();--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_entries_apply_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger_accounts a SET balance_minor = a.balance_minor + d.delta
  FROM (SELECT account_id, sum(amount_minor) AS delta FROM new_entries GROUP BY account_id) d
  WHERE a.id = d.account_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_apply AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_apply_statement();--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_entries_balanced_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  bad bigint;
  total numeric;
BEGIN
  SELECT n.transaction_id, s.total INTO bad, total
  FROM (SELECT DISTINCT transaction_id FROM new_entries) n
  CROSS JOIN LATERAL (SELECT coalesce(sum(e.amount_minor), 0) AS total FROM ledger_entries e WHERE e.transaction_id = n.transaction_id) s
  WHERE s.total <> 0
  LIMIT 1;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'ledger transaction % does not balance (sum %)', bad, total;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_balanced AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_balanced_statement();
