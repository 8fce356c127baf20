import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { userTokens } from '../../db/schema';

// --- single-use tokens: password reset links and phone codes ---

export const RESET_MINUTES = 60;
export const PHONE_CODE_MINUTES = 10;
export const PHONE_CODE_MAX_ATTEMPTS = 5;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sign = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest('hex');

export async function createResetToken(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.kind, 'password_reset'), isNull(userTokens.usedAt)));
  await db.insert(userTokens).values({ userId, kind: 'password_reset', tokenHash: sha256(token), expiresAt: new Date(Date.now() + RESET_MINUTES * 60_000) });
  return token;
}

/** Marks the token used and returns its user id when it is valid, unused and unexpired. */
export async function consumeResetToken(db: Db, userId: number, token: string): Promise<boolean> {
  const rows = await db
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userTokens.tokenHash, sha256(token)),
        eq(userTokens.userId, userId),
        eq(userTokens.kind, 'password_reset'),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, new Date()),
      ),
    )
    .returning({ id: userTokens.id });
  return rows.length === 1;
}

export async function createPhoneCode(db: Db, secret: string, userId: number): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const nonce = randomBytes(8).toString('hex');
  await db
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.kind, 'phone_code'), isNull(userTokens.usedAt)));
  await db.insert(userTokens).values({
    userId,
    kind: 'phone_code',
    tokenHash: `${nonce}$${sign(secret, `${userId}:${nonce}:${code}`)}`,
    expiresAt: new Date(Date.now() + PHONE_CODE_MINUTES * 60_000),
  });
  return code;
}

export type PhoneCodeCheck = 'ok' | 'wrong' | 'expired' | 'none' | 'locked';

export async function checkPhoneCode(db: Db, secret: string, userId: number, code: string): Promise<PhoneCodeCheck> {
  const [row] = await db
    .select()
    .from(userTokens)
    .where(and(eq(userTokens.userId, userId), eq(userTokens.kind, 'phone_code'), isNull(userTokens.usedAt)))
    .orderBy(sql`${userTokens.id} desc`)
    .limit(1);
  if (!row) return 'none';
  if (row.expiresAt.getTime() < Date.now()) return 'expired';
  if (row.attempts >= PHONE_CODE_MAX_ATTEMPTS) return 'locked';
  const [nonce, digest] = row.tokenHash.split('$');
  const expected = sign(secret, `${userId}:${nonce}:${code}`);
  if (expected !== digest) {
    await db
      .update(userTokens)
      .set({ attempts: sql`${userTokens.attempts} + 1` })
      .where(eq(userTokens.id, row.id));
    return row.attempts + 1 >= PHONE_CODE_MAX_ATTEMPTS ? 'locked' : 'wrong';
  }
  await db.update(userTokens).set({ usedAt: new Date() }).where(eq(userTokens.id, row.id));
  return 'ok';
}
