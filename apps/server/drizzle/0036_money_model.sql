-- Issue 30, the money model made explicit.
--
-- A. A typed journal: every journal transaction says what it is (`kind`), what it is about
--    (`subject_type`, `subject_id`) and, for a staff adjustment, the words the user is shown (`note`).
--    Readers (statement, earnings, analytics, refunds) read these; nothing parses a reason any more.
--    Rows written before this migration are filled in from their reason and idempotency key, once, here.
CREATE TYPE "ledger_transaction_kind" AS ENUM (
  'deposit', 'deposit_refund', 'sale', 'refund', 'earnings_release', 'earnings_hold', 'earnings_unhold',
  'withdrawal', 'withdrawal_return', 'payout', 'offer_payout', 'generation_charge', 'generation_refund',
  'chargeback_hold', 'chargeback_release', 'chargeback_loss', 'receivable_settlement', 'adjustment'
);--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "kind" "ledger_transaction_kind";--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "subject_type" text;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "subject_id" bigint;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "ledger_transactions" DISABLE TRIGGER "ledger_transactions_append_only";--> statement-breakpoint
UPDATE "ledger_transactions" SET "kind" = (CASE
    WHEN reason = 'deposit' THEN 'deposit'
    WHEN reason = 'deposit refunded' THEN 'deposit_refund'
    WHEN reason IN ('purchase', 'cart purchase', 'chat image unlock') OR reason LIKE 'sale%' THEN 'sale'
    WHEN reason LIKE 'image generation refund%' THEN 'generation_refund'
    WHEN reason LIKE 'image generation%' THEN 'generation_charge'
    WHEN reason LIKE 'refund%' THEN 'refund'
    WHEN reason = 'dispute opened' THEN 'chargeback_hold'
    WHEN reason = 'dispute won' THEN 'chargeback_release'
    WHEN reason = 'dispute lost' THEN 'chargeback_loss'
    WHEN reason LIKE 'earnings release%' THEN 'earnings_release'
    WHEN reason ~ '^withdrawal [0-9]+ paid$' THEN 'payout'
    WHEN reason ~ '^withdrawal [0-9]+ returned$' THEN 'withdrawal_return'
    WHEN reason ~ '^withdrawal [0-9]+$' THEN 'withdrawal'
    WHEN reason ~ '^payout [0-9]+ for offer' THEN 'offer_payout'
    WHEN reason ~ '^receivable [0-9]+ settled' THEN 'receivable_settlement'
    ELSE 'adjustment' END)::"ledger_transaction_kind",
  "subject_type" = (CASE
    WHEN idempotency_key ~ '^(deposit|deposit-refunded):[0-9]{1,18}$' THEN 'deposit'
    WHEN idempotency_key ~ '^chat-unlock:[0-9]{1,18}$' THEN 'chat_message'
    WHEN idempotency_key ~ '^refund:[0-9]{1,18}$' THEN 'refund_request'
    WHEN idempotency_key ~ '^(generation|generation-refund):[0-9]{1,18}$' THEN 'generation'
    WHEN idempotency_key ~ '^dispute-(opened|won|lost):[0-9]{1,18}$' THEN 'dispute'
    WHEN idempotency_key ~ '^earnings-release:[0-9]{1,18}$' THEN 'ledger_entry'
    WHEN idempotency_key ~ '^(withdrawal|withdrawal-paid|withdrawal-returned|payout):[0-9]{1,18}$' THEN 'payout'
    WHEN reason ~ '^receivable [0-9]{1,18} settled' THEN 'user'
    WHEN reason ~ '^manual adjustment by staff [0-9]{1,18}: ' THEN 'staff'
    END),
  "subject_id" = (CASE
    WHEN idempotency_key ~ '^[a-z-]+:[0-9]{1,18}$' THEN split_part(idempotency_key, ':', 2)::bigint
    WHEN reason ~ '^receivable [0-9]{1,18} settled' THEN substring(reason from '^receivable ([0-9]{1,18})')::bigint
    WHEN reason ~ '^manual adjustment by staff [0-9]{1,18}: ' THEN substring(reason from '^manual adjustment by staff ([0-9]{1,18})')::bigint
    END),
  "note" = substring(reason from '^manual adjustment by staff [0-9]{1,18}: (.*)$');--> statement-breakpoint
-- A sale of an order is about the order (the sale's statement names it since this migration).
UPDATE "ledger_transactions" t SET "subject_type" = 'order', "subject_id" = o.id
  FROM "orders" o WHERE o.ledger_transaction_id = t.id AND t.kind = 'sale' AND t.subject_type IS NULL;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ENABLE TRIGGER "ledger_transactions_append_only";--> statement-breakpoint
ALTER TABLE "ledger_transactions" ALTER COLUMN "kind" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "ledger_transactions_subject_idx" ON "ledger_transactions" ("subject_type", "subject_id", "kind");--> statement-breakpoint
-- B. The split is stored when the sale happens: every sold line (an order item, a paid chat image)
--    keeps what its seller earned and the platform's commission, written by the sale's own statement
--    (features/ledger/sale.ts). A refund gives back exactly these numbers.
--    Lines sold before this migration are filled in from the journal: the sale transaction's credit
--    to the seller's earnings accounts is spread over the seller's items in that order in proportion
--    to their prices (each item gets the difference of the running floors, so the items add up to the
--    credit exactly); the rest of each price is the commission. A chat image gets its sale's credit.
ALTER TABLE "order_items" ADD COLUMN "seller_minor" bigint;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "commission_minor" bigint;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "seller_minor" bigint;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "commission_minor" bigint;--> statement-breakpoint
WITH items AS (
  SELECT oi.id, oi.seller_id, oi.price_minor, o.ledger_transaction_id AS tx,
    sum(oi.price_minor) OVER (PARTITION BY oi.order_id, oi.seller_id) AS seller_part,
    sum(oi.price_minor) OVER (PARTITION BY oi.order_id, oi.seller_id ORDER BY oi.position, oi.id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running
  FROM order_items oi JOIN orders o ON o.id = oi.order_id
  WHERE o.ledger_transaction_id IS NOT NULL
), credits AS (
  SELECT e.transaction_id AS tx, a.owner_id AS seller_id, sum(e.amount_minor) AS earned
  FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
  WHERE a.kind IN ('earnings_pending', 'earnings_available') AND e.amount_minor > 0
    AND e.transaction_id IN (SELECT tx FROM items)
  GROUP BY e.transaction_id, a.owner_id
), split AS (
  SELECT i.id, i.price_minor, CASE WHEN i.seller_part > 0 THEN
      least(i.price_minor, floor(coalesce(c.earned, 0) * i.running / i.seller_part) - floor(coalesce(c.earned, 0) * (i.running - i.price_minor) / i.seller_part))::bigint
    ELSE 0 END AS seller_minor
  FROM items i LEFT JOIN credits c ON c.tx = i.tx AND c.seller_id = i.seller_id
)
UPDATE order_items oi SET seller_minor = s.seller_minor, commission_minor = s.price_minor - s.seller_minor FROM split s WHERE s.id = oi.id;--> statement-breakpoint
UPDATE order_items SET seller_minor = 0, commission_minor = price_minor WHERE seller_minor IS NULL;--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "seller_minor" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "commission_minor" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_split_check"
  CHECK ("seller_minor" >= 0 AND "commission_minor" >= 0 AND "seller_minor" + "commission_minor" = "price_minor");--> statement-breakpoint
UPDATE chat_messages m SET seller_minor = least(m.price_minor, c.earned), commission_minor = m.price_minor - least(m.price_minor, c.earned)
FROM (
  SELECT t.subject_id AS message_id, coalesce(sum(e.amount_minor) FILTER (
      WHERE a.kind IN ('earnings_pending', 'earnings_available') AND e.amount_minor > 0 AND a.owner_id = cm.user_id), 0) AS earned
  FROM ledger_transactions t
  JOIN chat_messages cm ON cm.id = t.subject_id
  JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
  WHERE t.kind = 'sale' AND t.subject_type = 'chat_message'
  GROUP BY t.subject_id
) c WHERE c.message_id = m.id AND m.price_minor IS NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_split_check"
  CHECK (("seller_minor" IS NULL) = ("commission_minor" IS NULL) AND ("seller_minor" IS NULL OR "seller_minor" + "commission_minor" = "price_minor"));--> statement-breakpoint
-- C. Earnings tracked per sale line: each sold line's credit is pending, released, held or refunded on
--    its own ('none' when it earned its seller nothing). The release job releases only lines still
--    pending, by their own amount; a refund cancels its own line. The pending account's balance is then
--    the sum of its pending lines (checked by the reconciliation).
--    Lines sold before this migration: refunded when refunded; released when their sale credited
--    available earnings at once or an earnings release names the sale's credit entry; otherwise pending.
--    A line still pending may pay part of its seller's debt (settleReceivable): `settled_minor` is that
--    part; the rest (`seller_minor - settled_minor`) is what the line still holds in pending earnings.
ALTER TABLE "order_items" ADD COLUMN "earnings_state" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "settled_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "settled_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
--    A released line under an open refund request is held: `held_minor` is what moved from available
--    to the creator's held account for it (less than the line when the creator had withdrawn some).
ALTER TABLE "order_items" ADD COLUMN "held_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "held_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "earnings_state" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_earnings_state_check" CHECK ("earnings_state" IN ('none', 'pending', 'released', 'held', 'refunded'));--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_earnings_state_check" CHECK ("earnings_state" IN ('none', 'pending', 'released', 'held', 'refunded'));--> statement-breakpoint
UPDATE order_items oi SET earnings_state = CASE
    WHEN oi.refunded_at IS NOT NULL THEN 'refunded'
    WHEN EXISTS (
      SELECT 1 FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
      WHERE e.transaction_id = o.ledger_transaction_id AND a.owner_id = oi.seller_id AND e.amount_minor > 0
        AND (a.kind = 'earnings_available'
          OR (a.kind = 'earnings_pending' AND EXISTS (SELECT 1 FROM ledger_transactions r WHERE r.kind = 'earnings_release' AND r.subject_type = 'ledger_entry' AND r.subject_id = e.id)))
    ) THEN 'released'
    ELSE 'pending' END
  FROM orders o WHERE o.id = oi.order_id AND oi.seller_minor > 0;--> statement-breakpoint
UPDATE chat_messages m SET earnings_state = CASE
    WHEN m.refunded_at IS NOT NULL THEN 'refunded'
    WHEN EXISTS (
      SELECT 1 FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
      WHERE t.kind = 'sale' AND t.subject_type = 'chat_message' AND t.subject_id = m.id AND a.owner_id = m.user_id AND e.amount_minor > 0
        AND (a.kind = 'earnings_available'
          OR (a.kind = 'earnings_pending' AND EXISTS (SELECT 1 FROM ledger_transactions r WHERE r.kind = 'earnings_release' AND r.subject_type = 'ledger_entry' AND r.subject_id = e.id)))
    ) THEN 'released'
    ELSE 'pending' END
  WHERE m.seller_minor > 0;--> statement-breakpoint
CREATE INDEX "order_items_earnings_pending_idx" ON "order_items" ("seller_id") WHERE "earnings_state" IN ('pending', 'held');--> statement-breakpoint
CREATE INDEX "chat_messages_earnings_pending_idx" ON "chat_messages" ("user_id") WHERE "earnings_state" IN ('pending', 'held');--> statement-breakpoint
-- Every sold line with its seller, split, state and when it was sold: the one list the release job,
-- the Earnings tab and the reconciliation read (each line lives in its own table).
CREATE VIEW "sale_lines" AS
  SELECT 'order_item'::text AS line_type, oi.id AS line_id, oi.seller_id, oi.seller_minor, oi.commission_minor, oi.settled_minor, oi.held_minor, oi.earnings_state,
         o.created_at AS sold_at, oi.order_id, oi.product_id, NULL::bigint AS chat_message_id
  FROM order_items oi JOIN orders o ON o.id = oi.order_id
  UNION ALL
  SELECT 'chat_message'::text, m.id, m.user_id, m.seller_minor, m.commission_minor, m.settled_minor, m.held_minor, m.earnings_state,
         coalesce(m.unlocked_at, m.created_at), NULL::bigint, NULL::bigint, m.id
  FROM chat_messages m WHERE m.seller_minor IS NOT NULL;--> statement-breakpoint
-- D. Earnings held for an open refund request: a creator's `earnings:held:<id>` account. A line under an
--    open request is not released; if it was already released, its amount moves here from available
--    until the request ends (refunded: it goes back to the buyer; rejected: back to available).
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("kind" IN ('user', 'platform_revenue', 'provider_clearing', 'earnings_pending', 'earnings_available', 'earnings_held', 'receivable', 'withdrawal_clearing', 'dispute_hold'));--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_earnings_owner_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_earnings_owner_check" CHECK (("kind" IN ('earnings_pending', 'earnings_available', 'earnings_held', 'receivable')) = ("owner_id" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_earnings_not_negative";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_earnings_not_negative" CHECK ("kind" NOT IN ('earnings_pending', 'earnings_available', 'earnings_held', 'withdrawal_clearing') OR NOT "allow_negative");--> statement-breakpoint
