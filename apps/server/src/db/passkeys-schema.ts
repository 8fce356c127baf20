/**
 * Passkeys (WebAuthn credentials) and their one-time challenges (migration 0024_passkeys,
 * features/passkeys).
 */
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './core-schema';

export const passkeys = pgTable(
  'passkeys',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the browser names it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter; a non-zero one must rise with every sign-in. */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_idx').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/**
 * A challenge handed out for one ceremony: deleted when it is answered (single use), dead after
 * PASSKEY_CHALLENGE_MINUTES. `boundTo` names who may answer it: `session:<session id>` for adding
 * a passkey, `cookie:<nonce>` (a signed, short-lived cookie) for signing in.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    challenge: text('challenge').notNull(),
    purpose: text('purpose', { enum: ['register', 'sign_in', 'step_up', 'sign_in_2fa'] }).notNull(),
    boundTo: text('bound_to').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webauthn_challenges_challenge_idx').on(t.challenge),
    index('webauthn_challenges_bound_idx').on(t.boundTo),
    index('webauthn_challenges_expires_idx').on(t.expiresAt),
  ],
);
