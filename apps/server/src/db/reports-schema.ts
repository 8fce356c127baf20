/**
 * Notice and action and trader details (migration 0041_dsa_reports_sellers, issue 33). A decision's
 * effect on its subject is the subject's own `moderation` column (products, reviews, users,
 * chat_messages), read by the one visibility rule in db/visibility.ts.
 */
import type { ReportDecision, ReportGround, ReportReason, ReportStatus, ReportSubjectType } from '@atelier/shared';
import { bigint, boolean, date, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './core-schema';
import { jsonb } from './json-column';

const userRef = (name: string) => bigint(name, { mode: 'number' }).references(() => users.id);

export const reports = pgTable(
  'reports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subjectType: text('subject_type').$type<ReportSubjectType>().notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    /** Whose content it is, fixed when reported: who gets the statement of reasons and may appeal. */
    authorId: userRef('author_id'),
    reporterId: userRef('reporter_id'),
    reporterEmail: text('reporter_email').notNull(),
    reporterName: text('reporter_name'),
    reason: text('reason').$type<ReportReason>().notNull(),
    explanation: text('explanation').notNull(),
    goodFaith: boolean('good_faith').notNull(),
    status: text('status').$type<ReportStatus>().notNull().default('open'),
    decision: text('decision').$type<ReportDecision>(),
    ground: text('ground').$type<ReportGround>(),
    decisionExplanation: text('decision_explanation'),
    decidedBy: userRef('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    appealMessage: text('appeal_message'),
    appealedAt: timestamp('appealed_at', { withTimezone: true }),
    appealOutcome: text('appeal_outcome').$type<'upheld' | 'reversed'>(),
    appealExplanation: text('appeal_explanation'),
    appealDecidedBy: userRef('appeal_decided_by'),
    appealDecidedAt: timestamp('appeal_decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('reports_status_subject_idx').on(t.status, t.subjectType, t.subjectId, t.id),
    index('reports_author_idx').on(t.authorId, t.id),
    index('reports_reporter_idx').on(t.reporterId, t.id),
    index('reports_created_idx').on(t.createdAt),
  ],
);

export const sellerDetails = pgTable('seller_details', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  kind: text('kind').$type<'individual' | 'business'>().notNull(),
  legalName: text('legal_name').notNull(),
  dateOfBirth: date('date_of_birth', { mode: 'string' }),
  addressLine1: text('address_line1').notNull(),
  addressLine2: text('address_line2'),
  city: text('city').notNull(),
  postCode: text('post_code').notNull(),
  country: text('country').notNull(),
  taxId: text('tax_id').notNull(),
  vatId: text('vat_id'),
  registrationNumber: text('registration_number'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const sellerDetailsHistory = pgTable(
  'seller_details_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: userRef('user_id').notNull(),
    details: jsonb('details').notNull(),
    replacedAt: timestamp('replaced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('seller_details_history_user_idx').on(t.userId, t.id)],
);
