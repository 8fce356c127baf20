import { randomBytes } from 'node:crypto';
import { idFromKey, minorToAmount, type PublicProfile, ratingAverage, SERVER_MIN_PASSWORD_LENGTH, type UserProfile } from '@atelier/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Db } from '../../db/client';
import { follows, products, users } from '../../db/schema';
import { isCommonPassword } from '../../lib/common-passwords';
import { hashPassword } from '../../lib/passwords';
import { publicUrl } from '../../lib/storage';

/** Users: lookups, the profile shapes of SPEC §3, nickname and password rules, staff accounts. */
export type { UserRow } from '../../db/users';
export { findUserById } from '../../db/users';

import type { UserRow } from '../../db/users';

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deletedAt)))
    .limit(1);
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

const largeAvatar = (path: string | null) => (path ? path.replace(/-150\.webp$/, '-300.webp') : null);

function profileBase(u: UserRow) {
  return {
    id: u.id,
    name: u.name,
    surname: u.surname,
    nickname: u.nickname,
    about_me: u.aboutMe,
    hourly_rate: minorToAmount(u.hourlyRateMinor),
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
    tax_country: u.taxCountry ?? null,
    vat_number: u.vatNumber ?? null,
  };
}

/**
 * What a creator's profile shows besides the person: their published works, the rating over all of
 * them (from each product's kept aggregate, no review is read), their followers, and whether the
 * reader follows them.
 */
export async function creatorStats(db: Db, creatorId: number, readerId: number | null) {
  const [row] = await db
    .select({
      products: sql<number>`count(*) filter (where ${products.status} = 'published')`,
      ratingSum: sql<number>`coalesce(sum(${products.ratingSum}) filter (where ${products.status} = 'published'), 0)`,
      ratingCount: sql<number>`coalesce(sum(${products.ratingCount}) filter (where ${products.status} = 'published'), 0)`,
      followers: sql<number>`(select count(*) from ${follows} where ${follows.creatorId} = ${creatorId})`,
      following:
        readerId === null
          ? sql<boolean>`false`
          : sql<boolean>`exists (select 1 from ${follows} where ${follows.creatorId} = ${creatorId} and ${follows.followerId} = ${readerId})`,
    })
    .from(products)
    .where(eq(products.authorId, creatorId));
  return {
    productsCount: Number(row?.products ?? 0),
    ratingSum: Number(row?.ratingSum ?? 0),
    ratingCount: Number(row?.ratingCount ?? 0),
    followers: Number(row?.followers ?? 0),
    following: row?.following === true,
  };
}

export function toPublicProfile(u: UserRow, stats: Awaited<ReturnType<typeof creatorStats>>): PublicProfile {
  return {
    ...profileBase(u),
    products_count: stats.productsCount,
    rating_average: ratingAverage(stats.ratingSum, stats.ratingCount),
    rating_count: stats.ratingCount,
    followers_count: stats.followers,
    following: stats.following,
  };
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

/** Shortest password accepted for a staff account made from the command line. */
export const STAFF_MIN_PASSWORD_LENGTH = 12;

/** A verified admin account: created, or an existing account promoted, with the given password. */
export async function createStaffAccount(
  db: Db,
  input: { email: string; name: string; surname: string; password: string },
): Promise<{ ok: true; created: boolean } | { ok: false; problem: string }> {
  if (input.password.length < STAFF_MIN_PASSWORD_LENGTH)
    return { ok: false, problem: `The password must be at least ${STAFF_MIN_PASSWORD_LENGTH} characters long.` };
  const weak = passwordProblem(input.password, input.email);
  if (weak) return { ok: false, problem: weak };
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(db, input.email);
  if (existing) {
    await db.update(users).set({ role: 'admin', passwordHash, updatedAt: new Date() }).where(eq(users.id, existing.id));
    return { ok: true, created: false };
  }
  const nickname = await generateNickname(db, input.name, input.surname);
  await db.insert(users).values({
    email: input.email,
    passwordHash,
    name: input.name,
    surname: input.surname,
    nickname,
    role: 'admin',
    emailVerifiedAt: new Date(),
  });
  return { ok: true, created: true };
}
