/**
 * Commerce tables (migration 0007_ledger): ledger, cart, orders, deposits, payment webhooks.
 * The ledger's rules (balanced transactions, append-only journal, no negative user balance) live in
 * the migration's constraints and triggers; see features/ledger/ledger.ts.
 */

import type { LicenceTier } from '@atelier/shared';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, numeric, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { products, users } from './core-schema';
import { jsonb } from './json-column';

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export type LedgerAccountKind =
  | 'user'
  | 'platform_revenue'
  | 'provider_clearing'
  /** A creator's earnings (migration 0026): pending until the clearing period passes, then available; a receivable may go below zero. */
  | 'earnings_pending'
  | 'earnings_available'
  /** Earnings held for an open refund request (migration 0036). */
  | 'earnings_held'
  | 'receivable'
  /** Withdrawals on their way to the creator (one system account). */
  | 'withdrawal_clearing'
  /** Money of card payments under dispute (migration 0029: one system account, 'disputes:hold'). */
  | 'dispute_hold'
  /** VAT owed to one country's tax office (migration 0042: 'vat:payable:<country>'). */
  | 'vat_payable';

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: id(),
    kind: text('kind').$type<LedgerAccountKind>().notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    /** System accounts: 'platform:revenue', 'clearing:sandbox', 'clearing:stripe'. */
    code: text('code'),
    currency: text('currency').notNull().default('EUR'),
    /** Sum of the account's entries, kept by a trigger on ledger_entries. */
    balanceMinor: bigint('balance_minor', { mode: 'number' }).notNull().default(0),
    allowNegative: boolean('allow_negative').notNull().default(false),
    /** The creator an earnings account (pending, available, receivable) belongs to; null for every other kind. */
    ownerId: bigint('owner_id', { mode: 'number' }).references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_user_idx').on(t.userId).where(sql`user_id is not null`),
    uniqueIndex('ledger_accounts_owner_kind_idx').on(t.ownerId, t.kind).where(sql`owner_id is not null`),
    uniqueIndex('ledger_accounts_code_idx').on(t.code).where(sql`code is not null`),
  ],
);

/** Where a sold line's earnings are (migration 0036); 'none' when it earned its seller nothing. */
export type EarningsLineState = 'none' | 'pending' | 'released' | 'held' | 'refunded';

/** What a journal transaction is (migration 0036): readers go by this, never by the reason's text. */
export const ledgerTransactionKinds = [
  'deposit',
  'deposit_refund',
  'sale',
  'refund',
  'earnings_release',
  'earnings_hold',
  'earnings_unhold',
  'withdrawal',
  'withdrawal_return',
  'payout',
  'offer_payout',
  'generation_charge',
  'generation_refund',
  'chargeback_hold',
  'chargeback_release',
  'chargeback_loss',
  'receivable_settlement',
  'adjustment',
] as const;
export type LedgerTransactionKind = (typeof ledgerTransactionKinds)[number];
export const ledgerTransactionKind = pgEnum('ledger_transaction_kind', ledgerTransactionKinds);

/** What a journal transaction is about: its `subject_id` is a row of this table. */
export type LedgerSubjectType =
  | 'deposit'
  | 'order'
  | 'order_item'
  | 'chat_message'
  | 'refund_request'
  | 'generation'
  | 'dispute'
  | 'payout'
  | 'ledger_entry'
  | 'user'
  | 'staff';

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: id(),
    /** Free text for people reading the journal (the back office searches it); no code reads it. */
    reason: text('reason').notNull(),
    kind: ledgerTransactionKind('kind').notNull(),
    subjectType: text('subject_type').$type<LedgerSubjectType>(),
    subjectId: bigint('subject_id', { mode: 'number' }),
    /** What the user is shown for it (a staff adjustment's words). */
    note: text('note'),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [index('ledger_transactions_subject_idx').on(t.subjectType, t.subjectId, t.kind)],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
  },
  (t) => [index('ledger_entries_transaction_idx').on(t.transactionId), index('ledger_entries_account_idx').on(t.accountId)],
);

export const cartItems = pgTable(
  'cart_items',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The licence the line will be bought at (migration 0049). */
    licenceTier: text('licence_tier').$type<LicenceTier>().notNull().default('commercial'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('cart_items_user_product_idx').on(t.userId, t.productId)],
);

/** refunded: every item was refunded (migration 0028). */
export type OrderStatus = 'success' | 'pending' | 'failed' | 'refunded';

export const orders = pgTable(
  'orders',
  {
    id: id(),
    buyerId: bigint('buyer_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    status: text('status').$type<OrderStatus>().notNull().default('success'),
    /** image | doc | prompt | pack for one product; cart for a checkout of several. */
    productType: text('product_type').notNull(),
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' }).references(() => ledgerTransactions.id),
    /** The currency the order was shown and paid in, with that day's rate (null before migration 0027: EUR). */
    paidCurrency: text('paid_currency'),
    paidRate: numeric('paid_rate', { precision: 18, scale: 8, mode: 'string' }),
    paidDecimals: integer('paid_decimals'),
    /** The order's tax, stored at sale time (migration 0042, features/tax): never recomputed. */
    taxCountry: text('tax_country'),
    taxRateBp: integer('tax_rate_bp').notNull().default(0),
    vatMinor: bigint('vat_minor', { mode: 'number' }).notNull().default(0),
    reverseCharge: boolean('reverse_charge').notNull().default(false),
    buyerVatNumber: text('buyer_vat_number'),
    taxEvidence: jsonb('tax_evidence').$type<Record<string, unknown>>(),
    invoiceNumber: text('invoice_number'),
    creditNoteNumber: text('credit_note_number'),
    creditNoteAt: timestamp('credit_note_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('orders_buyer_idx').on(t.buyerId, t.id), index('orders_created_idx').on(t.createdAt)],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: id(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id),
    /** Set on the items of a bought pack. */
    packId: bigint('pack_id', { mode: 'number' }).references(() => products.id),
    sellerId: bigint('seller_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    /** What the seller earned from this line and the platform's commission, stored by the sale (migration 0036); they add up to the price. */
    sellerMinor: bigint('seller_minor', { mode: 'number' }).notNull(),
    commissionMinor: bigint('commission_minor', { mode: 'number' }).notNull(),
    /** The VAT carved out of the price (migration 0042): price = VAT + seller share + commission. */
    vatMinor: bigint('vat_minor', { mode: 'number' }).notNull().default(0),
    /** The line's earnings (migration 0036): none, pending, released, held (an open refund request) or refunded. */
    earningsState: text('earnings_state').$type<EarningsLineState>().notNull().default('none'),
    /** What of a pending line already paid its seller's debt (settleReceivable); the rest is still pending. */
    settledMinor: bigint('settled_minor', { mode: 'number' }).notNull().default(0),
    /** What moved from available to held earnings while a refund request on this released line is open. */
    heldMinor: bigint('held_minor', { mode: 'number' }).notNull().default(0),
    position: integer('position').notNull().default(0),
    /** The licence this line sold (migration 0049); an upgrade line sells the difference from `upgradedFrom`. */
    licenceTier: text('licence_tier').$type<LicenceTier>().notNull().default('commercial'),
    upgradedFrom: text('upgraded_from').$type<LicenceTier>(),
    /** Set when the item was refunded (migration 0028): its download then answers 410. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [index('order_items_order_idx').on(t.orderId), index('order_items_seller_idx').on(t.sellerId, t.orderId)],
);

export const userProducts = pgTable(
  'user_products',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id),
    /** The licence the user owns now (migration 0049): an upgrade moves it, its refund moves it back. */
    licenceTier: text('licence_tier').$type<LicenceTier>().notNull().default('commercial'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'user_products_pk', columns: [t.userId, t.productId] })],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** The call and body the key was first used with; another request under the same key is refused. */
    fingerprint: text('fingerprint').notNull(),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pk', columns: [t.userId, t.key] })],
);

export type DepositStatus = 'processing' | 'success' | 'failed' | 'error';

export const deposits = pgTable(
  'deposits',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** Credited amount in the base currency (EUR cents). */
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    /** What the user asked to pay, in the currency they chose. */
    currency: text('currency').notNull(),
    currencyAmountMinor: bigint('currency_amount_minor', { mode: 'number' }).notNull(),
    provider: text('provider').notNull(),
    paymentMethod: text('payment_method').notNull(),
    status: text('status').$type<DepositStatus>().notNull().default('processing'),
    errorMessage: text('error_message'),
    /** The provider's id for the payment (a Stripe Checkout Session id). */
    providerRef: text('provider_ref'),
    /** The provider's id of the payment itself (a Stripe PaymentIntent), which its disputes and refunds name (migration 0029). */
    providerPaymentRef: text('provider_payment_ref'),
    /** When the provider refunded the payment (charge.refunded), once. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** The sandbox's single-use form token; rotated on every step, cleared when the payment ends. */
    checkoutNonce: text('checkout_nonce'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    /** The paying card's country (migration 0042): evidence of the buyer's country for VAT. */
    cardCountry: text('card_country'),
    /** Why staff must look at it: a success event whose amount or currency did not match (issue 30); nothing was credited. */
    flaggedReason: text('flagged_reason'),
    flaggedAt: timestamp('flagged_at', { withTimezone: true }),
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' }).references(() => ledgerTransactions.id),
    /**
     * What the card payment is for besides the balance, e.g. `{kind: "chat_unlock", chatId, messageId}`:
     * the credit and the purchase it pays run in one transaction when the webhook arrives. Null for Add Funds.
     */
    purpose: jsonb('purpose').$type<{ kind: string } & Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('deposits_user_idx').on(t.userId, t.id), index('deposits_flagged_idx').on(t.flaggedAt, t.id).where(sql`flagged_at IS NOT NULL`)],
);

export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'payment_events_pk', columns: [t.provider, t.eventId] })],
);

export type DisputeStatus = 'open' | 'won' | 'lost';

/** A card payment's dispute (chargeback), opened and closed by the provider (migration 0029); see payments/dispute-states.ts. */
export const disputes = pgTable(
  'disputes',
  {
    id: id(),
    provider: text('provider').notNull(),
    providerDisputeId: text('provider_dispute_id').notNull(),
    depositId: bigint('deposit_id', { mode: 'number' })
      .notNull()
      .references(() => deposits.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    status: text('status').$type<DisputeStatus>().notNull().default('open'),
    reason: text('reason'),
    /**
     * EUR cents held: from the balance, and from the receivable for what was already spent. The event's
     * disputed amount, never more than what of the payment no other dispute holds (0: nothing left, 0035).
     */
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    /** The amount the provider's event disputed, in its currency's minor units, as it came (null: the event named none). */
    disputedMinor: bigint('disputed_minor', { mode: 'number' }),
    disputedCurrency: text('disputed_currency'),
    fromBalanceMinor: bigint('from_balance_minor', { mode: 'number' }).notNull(),
    fromReceivableMinor: bigint('from_receivable_minor', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('disputes_provider_dispute_idx').on(t.provider, t.providerDisputeId),
    index('disputes_status_idx').on(t.status, t.id),
    index('disputes_deposit_idx').on(t.depositId),
  ],
);
