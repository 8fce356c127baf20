/**
 * Offers and payouts (migration 0009_offers): a creator's work offered to the platform, every move of
 * its state machine (features/offers/offer-states.ts), and the payouts that pay for it. Card numbers
 * are never stored: only brand and last four and the provider's token; an IBAN is kept encrypted and shown masked.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { FileMeta } from '../lib/file-meta';
import { categories, products, users } from './core-schema';
import { jsonb } from './json-column';

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const offers = pgTable(
  'offers',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    categoryId: bigint('category_id', { mode: 'number' }).references(() => categories.id),
    /** The creator's asking price, EUR cents. */
    userPriceMinor: bigint('user_price_minor', { mode: 'number' }).notNull(),
    /** 'listing': published under the creator's name, earning through sales; 'buyout': sold to the platform (migration 0026). */
    dealType: text('deal_type').$type<'listing' | 'buyout'>().notNull().default('buyout'),
    /** What the platform offers to pay, EUR cents (set by staff). */
    servicePriceMinor: bigint('service_price_minor', { mode: 'number' }),
    status: text('status').notNull().default('pending'),
    /** The decline reason, or why the last payout failed. */
    statusNote: text('status_note'),
    aiGenerated: boolean('ai_generated').notNull().default(true),
    keywords: text('keywords').notNull().default(''),
    /** 'image' or 'other' (SPEC doc_type). */
    docType: text('doc_type').notNull(),
    /** The type found in the file's bytes: jpeg, png, gif, svg, pdf, doc, docx, txt. */
    fileType: text('file_type').notNull(),
    fileName: text('file_name').notNull(),
    originalPath: text('original_path').notNull(),
    /** What the file is (migration 0046): measured on upload, handed to the product it becomes. */
    fileMeta: jsonb<FileMeta>('file_meta'),
    previewPath: text('preview_path'),
    /** The platform-owned product made on acceptance. */
    productId: bigint('product_id', { mode: 'number' }).references(() => products.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('offers_user_idx').on(t.userId, t.id), index('offers_status_idx').on(t.status, t.id)],
);

export const offerEvents = pgTable(
  'offer_events',
  {
    id: id(),
    offerId: bigint('offer_id', { mode: 'number' })
      .notNull()
      .references(() => offers.id),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    /** 'creator', 'staff' or 'system'; actorId names the user for the first two. */
    actor: text('actor').notNull(),
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('offer_events_offer_idx').on(t.offerId, t.id)],
);

export const payouts = pgTable(
  'payouts',
  {
    id: id(),
    /** What the payout pays for (migration 0014): 'offer' (offer_id set) or 'withdrawal' (a creator's earnings, migration 0026). */
    kind: text('kind').$type<'offer' | 'withdrawal'>().notNull().default('offer'),
    offerId: bigint('offer_id', { mode: 'number' }).references(() => offers.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    method: text('method').$type<'card' | 'sepa'>().notNull(),
    provider: text('provider').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('EUR'),
    status: text('status').$type<'processing' | 'needs_review' | 'paid' | 'failed'>().notNull().default('processing'),
    /**
     * What the provider said when asked by payout id (payout.reconcile, issue 30): null until a job gave
     * up on the payout, then 'unknown' until the provider answers 'paid' or 'not_paid'.
     */
    providerState: text('provider_state').$type<'unknown' | 'paid' | 'not_paid'>(),
    providerCheckedAt: timestamp('provider_checked_at', { withTimezone: true }),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    ibanMasked: text('iban_masked'),
    /** AES-256-GCM, key derived from SESSION_SECRET (payouts.ts). */
    ibanEncrypted: text('iban_encrypted'),
    holderName: text('holder_name').notNull(),
    contact: jsonb('contact').notNull(),
    providerRef: text('provider_ref'),
    /** What the provider made of the destination before the transaction (never a card number): see payout-provider.ts. */
    destinationToken: text('destination_token'),
    /** Stripe Connect: the creator's connected account. */
    providerAccount: text('provider_account'),
    /** The bank transfer's reference staff gave when marking the payout paid. */
    transferReference: text('transfer_reference'),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('payouts_status_idx').on(t.status, t.id),
    uniqueIndex('payouts_one_processing_idx').on(t.offerId).where(sql`status IN ('processing', 'needs_review')`),
    index('payouts_user_provider_idx').on(t.userId, t.provider, t.id),
    uniqueIndex('payouts_one_withdrawal_in_flight_idx').on(t.userId).where(sql`kind = 'withdrawal' and status IN ('processing', 'needs_review')`),
    index('payouts_user_kind_idx').on(t.userId, t.kind, t.id),
  ],
);
