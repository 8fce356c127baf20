/**
 * Account security (migration 0023_account_security, issue 21): TOTP secrets and recovery codes.
 * The session's `ip_hint` and `second_factor_at` live on `sessions` in schema.ts.
 */
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './core-schema';

/** One TOTP secret per user, encrypted; `enabledAt` is null while enrolment waits for its first code. */
export const userTotp = pgTable('user_totp', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEnc: text('secret_enc').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The 30-second step of the last accepted code: a code is never accepted twice. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use recovery codes, kept only as sha256 hashes. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_recovery_codes_user_idx').on(t.userId)],
);
