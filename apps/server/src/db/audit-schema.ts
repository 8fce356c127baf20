/**
 * The staff audit log (migration 0013_backoffice): one append-only row per staff action, written in
 * the same transaction as the change (features/audit).
 */
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './core-schema';
import { jsonb } from './json-column';

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    staffId: bigint('staff_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_staff_idx').on(t.staffId, t.id), index('audit_log_subject_idx').on(t.subjectType, t.subjectId, t.id)],
);
