-- A transfer written as one statement together with the records it pays for (a purchase's order,
-- items and receipt job) calls this for a line it must refuse, so the whole statement, and with it
-- its transaction, is undone: SQLSTATE LD001 with the account and the missing amount (EUR cents) in
-- DETAIL as "<account id>:<shortfall>", or "<account id>:unknown" for an account that does not exist.
-- The CHECK on ledger_accounts.balance_minor still refuses a negative user balance on its own; this
-- only reports it before any entry is written, with the amount the caller shows.
CREATE OR REPLACE FUNCTION ledger_refuse(account_id bigint, balance_after bigint, known boolean) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT known THEN
    RAISE EXCEPTION USING ERRCODE = 'LD001', MESSAGE = 'ledger transfer names an unknown account', DETAIL = account_id || ':unknown';
  END IF;
  RAISE EXCEPTION USING ERRCODE = 'LD001', MESSAGE = 'insufficient funds', DETAIL = account_id || ':' || (-balance_after);
END
$$;
