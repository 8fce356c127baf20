import { PASSKEY_CHALLENGE_MINUTES, type Passkey } from '@atelier/shared';
import { and, asc, count, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { passkeys, webauthnChallenges } from '../../db/schema';

export type PasskeyRow = typeof passkeys.$inferSelect;
type ChallengePurpose = 'register' | 'sign_in' | 'step_up' | 'sign_in_2fa';

export function toPasskey(row: PasskeyRow): Passkey {
  return { id: row.id, name: row.name, created_at: row.createdAt.toISOString(), last_used_at: row.lastUsedAt?.toISOString() ?? null };
}

export async function listPasskeys(db: Db, userId: number): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id));
}

export async function countPasskeys(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return Number(row?.n ?? 0);
}

/** The passkey, only when it is this user's (another user's id reads as missing). */
export async function findUserPasskey(db: Db, userId: number, id: number): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .limit(1);
  return row;
}

export async function findPasskeyByCredentialId(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1);
  return row;
}

export async function insertPasskey(
  db: Db,
  values: { userId: number; credentialId: string; publicKey: string; counter: number; transports: string[]; name: string },
): Promise<PasskeyRow | undefined> {
  const [row] = await db.insert(passkeys).values(values).onConflictDoNothing({ target: passkeys.credentialId }).returning();
  return row;
}

export async function renamePasskey(db: Db, userId: number, id: number, name: string): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  return row;
}

/** Removes the user's passkey; the removed row's name, or undefined when the user has no such passkey. */
export async function deletePasskey(db: Db, userId: number, id: number): Promise<{ name: string } | undefined> {
  const [row] = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ name: passkeys.name });
  return row;
}

/**
 * Records a sign-in's counter in one statement that also checks it: a counter that is not zero
 * must be above the stored one, so two answers carrying the same counter cannot both pass.
 */
export async function recordPasskeyUse(db: Db, id: number, newCounter: number): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: new Date() })
    .where(and(eq(passkeys.id, id), or(eq(sql`${newCounter}::bigint`, 0), lt(passkeys.counter, newCounter))))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

/** Stores a challenge for one ceremony; the same binding's earlier challenges (and expired ones) go. */
export async function saveChallenge(db: Db, values: { challenge: string; purpose: ChallengePurpose; boundTo: string; userId?: number }) {
  await db
    .delete(webauthnChallenges)
    .where(
      or(lt(webauthnChallenges.expiresAt, new Date()), and(eq(webauthnChallenges.boundTo, values.boundTo), eq(webauthnChallenges.purpose, values.purpose))),
    );
  await db.insert(webauthnChallenges).values({ ...values, expiresAt: new Date(Date.now() + PASSKEY_CHALLENGE_MINUTES * 60_000) });
}

/**
 * Takes a challenge away in one statement (single use): it counts only when it is live, for this
 * purpose and bound to this caller. Returns the user it was issued to (null for a sign-in), or
 * undefined when there is no such challenge.
 */
export async function consumeChallenge(db: Db, challenge: string, purpose: ChallengePurpose, boundTo: string): Promise<{ userId: number | null } | undefined> {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        eq(webauthnChallenges.boundTo, boundTo),
        gt(webauthnChallenges.expiresAt, new Date()),
      ),
    )
    .returning({ userId: webauthnChallenges.userId });
  return row;
}
