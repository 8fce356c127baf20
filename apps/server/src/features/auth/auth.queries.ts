import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { idFromKey, type PublicProfile, SERVER_MIN_PASSWORD_LENGTH, type UserProfile } from '@atelier/shared';
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Db } from '../../db/client';
import { products, users, userTokens } from '../../db/schema';
import { isCommonPassword } from '../../lib/common-passwords';
import { publicUrl } from '../../lib/storage';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deletedAt)))
    .limit(1);
  return user;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/** By numeric id or by nickname (case-insensitive); deleted accounts are not found. */
export async function findUserByIdOrNickname(db: Db, key: string): Promise<UserRow | undefined> {
  const id = idFromKey(key);
  const where = id !== null ? eq(users.id, id) : sql`lower(${users.nickname}) = ${key.toLowerCase()}`;
  const [user] = await db
    .select()
    .from(users)
    .where(and(where, isNull(users.deletedAt)))
    .limit(1);
  return user;
}

export async function countPublishedProducts(db: Db, authorId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(products)
    .where(and(eq(products.authorId, authorId), eq(products.status, 'published')));
  return row?.n ?? 0;
}

const largeAvatar = (path: string | null) => (path ? path.replace(/-150\.webp$/, '-300.webp') : null);

function profileBase(u: UserRow) {
  return {
    id: u.id,
    name: u.name,
    surname: u.surname,
    nickname: u.nickname,
    about_me: u.aboutMe,
    hourly_rate: u.hourlyRateMinor / 100,
    avatar_path: publicUrl(u.avatarPath),
    avatar_url_large: publicUrl(largeAvatar(u.avatarPath)),
    created_at: Math.floor(u.createdAt.getTime() / 1000),
  };
}

export function toProfile(u: UserRow): UserProfile {
  return {
    ...profileBase(u),
    email: u.email,
    phone: u.phone,
    contact_info: { phone: u.phone },
    is_email_verified: u.emailVerifiedAt !== null,
    is_phone_verified: u.phoneVerifiedAt !== null,
    role: u.role,
  };
}

export function toPublicProfile(u: UserRow, productsCount: number): PublicProfile {
  return { ...profileBase(u), products_count: productsCount };
}

/** The server's password rules on top of the client's: long enough, not a known common password. */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < SERVER_MIN_PASSWORD_LENGTH) return `The password must be at least ${SERVER_MIN_PASSWORD_LENGTH} characters long.`;
  if (isCommonPassword(password)) return 'This password is too common. Please choose a less predictable one.';
  if (email && password.toLowerCase() === email.toLowerCase()) return 'The password must not be your e-mail address.';
  return null;
}

/** A phone number in E.164 (+351912345678), or null when it is not a valid number. */
export function normalizePhone(raw: string): string | null {
  const parsed = parsePhoneNumberFromString(raw.trim());
  return parsed?.isValid() ? parsed.number : null;
}

/** A unique nickname from the person's name: "Sofia Marin" → sofiamarin, sofiamarin2, ... */
export async function generateNickname(db: Db, name: string, surname: string): Promise<string> {
  const base =
    `${name}${surname}`
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 24) || 'creator';
  const padded = base.length < 3 ? `${base}art` : base;
  for (let i = 0; i < 50; i++) {
    const candidate = i === 0 ? padded : `${padded}${i + 1}`;
    if (!(await findUserByIdOrNickname(db, candidate))) return candidate;
  }
  return `${padded}${randomBytes(3).toString('hex')}`;
}

export async function isNicknameTaken(db: Db, nickname: string, exceptUserId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.nickname}) = ${nickname.toLowerCase()} and ${users.id} <> ${exceptUserId}`)
    .limit(1);
  return Boolean(row);
}

export async function isEmailTaken(db: Db, email: string, exceptUserId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()} and ${users.id} <> ${exceptUserId ?? 0}`)
    .limit(1);
  return Boolean(row);
}

// --- e-mail verification: signed, expiring links (no table needed) ---

export const EMAIL_LINK_MINUTES = 60;
const emailHash = (email: string) => createHash('sha1').update(email.toLowerCase()).digest('hex');

function sign(secret: string, data: string) {
  return createHmac('sha256', secret).update(data).digest('hex');
}

export function emailVerificationPath(secret: string, user: UserRow, now = Date.now()): string {
  const hash = emailHash(user.email);
  const expires = Math.floor(now / 1000) + EMAIL_LINK_MINUTES * 60;
  const signature = sign(secret, `verify:${user.id}:${hash}:${expires}`);
  return `/email/verify/${user.id}/${hash}?expires=${expires}&signature=${signature}`;
}

export type LinkCheck = 'ok' | 'invalid' | 'expired';

export function checkEmailVerification(secret: string, user: UserRow | undefined, hash: string, expires: number, signature: string): LinkCheck {
  if (!user) return 'invalid';
  const expected = sign(secret, `verify:${user.id}:${hash}:${expires}`);
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  if (a.length !== b.length || !timingSafeEqual(a, b) || hash !== emailHash(user.email)) return 'invalid';
  if (expires * 1000 < Date.now()) return 'expired';
  return 'ok';
}

// --- single-use tokens: password reset links and phone codes ---

export const RESET_MINUTES = 60;
export const PHONE_CODE_MINUTES = 10;
export const PHONE_CODE_MAX_ATTEMPTS = 5;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

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
