import { createHash, randomBytes } from 'node:crypto';
import { STEP_UP_FIELD, STEP_UP_MINUTES } from '@atelier/shared';
import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db } from '../../db/client';
import { userRecoveryCodes, userTotp } from '../../db/schema';
import { AppError, validationError } from '../../lib/app-error';
import { enforceRateLimit, releaseRateLimitHit } from '../../lib/rate-limit';
import { openSecret, sealSecret } from '../../lib/secret-box';
import { recordSecondFactor } from '../../lib/session';
import { userHasPasskey } from '../passkeys';

const PERIOD = 30;
const ISSUER = 'Atelier';
const SECRET_PURPOSE = 'totp';
/** Codes tried per account and per address in one window, counted before the check (like passwords). */
const CODES_PER_ACCOUNT = { limit: 5, windowSeconds: 60 };
const CODES_PER_ADDRESS = { limit: 20, windowSeconds: 60 };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const totpFor = (secret: string, label: string) =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** Whether the user signs in with an authenticator app (TOTP): the code step after the password, and step-up by code. */
export async function totpEnabled(db: Db, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: userTotp.userId })
    .from(userTotp)
    .where(and(eq(userTotp.userId, userId), isNotNull(userTotp.enabledAt)))
    .limit(1);
  return !!row;
}

/**
 * Whether the user has any second factor: an authenticator app or a passkey. The staff rule counts
 * either. Step-up asks for a code only when TOTP is on: a passkey-only account proves its second
 * factor by signing in with the passkey (the session's marker), as there is no passkey step-up yet.
 */
export async function hasSecondFactor(db: Db, userId: number): Promise<boolean> {
  return (await totpEnabled(db, userId)) || (await userHasPasskey(db, userId));
}

export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

/** Starts (or restarts) enrolment: a new secret waits, encrypted, for its first code. */
export async function beginTotpSetup(db: Db, sessionSecret: string, userId: number, label: string) {
  if (await totpEnabled(db, userId)) throw new AppError('CONFLICT', 'Two-factor sign-in is already on. Turn it off first to set up a new app.');
  const secret = new Secret({ size: 20 }).base32;
  const secretEnc = sealSecret(secret, sessionSecret, SECRET_PURPOSE);
  await db
    .insert(userTotp)
    .values({ userId, secretEnc })
    .onConflictDoUpdate({ target: userTotp.userId, set: { secretEnc, enabledAt: null, lastUsedStep: null, createdAt: new Date() } });
  const otpauthUrl = totpFor(secret, label).toString();
  // Drawn here, by a library, as SVG: no image service ever sees the secret.
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, otpauth_url: otpauthUrl, qr_svg: qrSvg };
}

export type CodeCheck = 'ok' | 'wrong' | 'replayed' | 'none';

/**
 * Checks an app code against the user's secret (one step of clock drift either way) and accepts it
 * only if its time step is later than the last accepted one, in one conditional update: a code, or an
 * older one, is never accepted twice, even by two requests at the same moment.
 */
export async function checkTotpCode(db: Db, sessionSecret: string, userId: number, code: string, opts: { pending?: boolean } = {}): Promise<CodeCheck> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
  if (!row || (opts.pending ? row.enabledAt !== null : row.enabledAt === null)) return 'none';
  const secret = openSecret(row.secretEnc, sessionSecret, SECRET_PURPOSE);
  const now = Date.now();
  const delta = totpFor(secret, 'check').validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return 'wrong';
  const step = Math.floor(now / 1000 / PERIOD) + delta;
  const moved = await db
    .update(userTotp)
    .set({ lastUsedStep: step, ...(opts.pending ? { enabledAt: new Date() } : {}) })
    .where(and(eq(userTotp.userId, userId), or(isNull(userTotp.lastUsedStep), lt(userTotp.lastUsedStep, step))))
    .returning({ userId: userTotp.userId });
  return moved.length === 1 ? 'ok' : 'replayed';
}

/** Ten fresh single-use codes ("abcde-12345"); the old ones stop working. Only hashes are kept. */
export async function replaceRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const codes = Array.from({ length: 10 }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await db.insert(userRecoveryCodes).values(codes.map((c) => ({ userId, codeHash: sha256(c.replace('-', '')) })));
  return codes;
}

/** Uses up one recovery code; true once per code (the update is the check). */
export async function useRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  const rows = await db
    .update(userRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(userRecoveryCodes.userId, userId), eq(userRecoveryCodes.codeHash, sha256(code.replace('-', ''))), isNull(userRecoveryCodes.usedAt)))
    .returning({ id: userRecoveryCodes.id });
  return rows.length === 1;
}

export async function disableTotp(db: Db, userId: number) {
  await db.delete(userTotp).where(eq(userTotp.userId, userId));
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
}

const CODE_MESSAGES = {
  wrong: 'This code is not correct. Check the time on your phone and try again.',
  replayed: 'This code was already used. Wait for the next one from your app.',
  none: 'Two-factor sign-in is not set up for this account.',
  recovery: 'This recovery code is not correct or was already used.',
} as const;

/**
 * Checks a second factor given as an app code or a recovery code, rate-limited per account and per
 * address like passwords (counted before the check; a success takes its hit back). A refusal is a 422
 * under the field that was sent.
 */
export async function verifySecondFactor(
  db: Db,
  sessionSecret: string,
  userId: number,
  ip: string,
  input: { code?: string; recovery_code?: string },
): Promise<'code' | 'recovery_code'> {
  const tooMany = 'Too many codes tried.';
  await enforceRateLimit(db, `2fa:ip:${ip}`, CODES_PER_ADDRESS, tooMany);
  await enforceRateLimit(db, `2fa:account:${userId}`, CODES_PER_ACCOUNT, tooMany);
  let used: 'code' | 'recovery_code';
  if (input.code !== undefined) {
    const result = await checkTotpCode(db, sessionSecret, userId, input.code);
    if (result !== 'ok') throw validationError({ code: CODE_MESSAGES[result] });
    used = 'code';
  } else {
    if (!(await useRecoveryCode(db, userId, input.recovery_code ?? ''))) throw validationError({ recovery_code: CODE_MESSAGES.recovery });
    used = 'recovery_code';
  }
  await releaseRateLimitHit(db, [`2fa:ip:${ip}`, `2fa:account:${userId}`]);
  return used;
}

export const STEP_UP_MESSAGE = 'Please confirm it is you: enter a code from your authenticator app.';
export const STEP_UP_PASSKEY_MESSAGE = 'Please confirm it is you with your passkey.';

export function isSecondFactorFresh(at: Date | null | undefined, now = Date.now()): boolean {
  return !!at && now - at.getTime() < STEP_UP_MINUTES * 60_000;
}

/**
 * Step-up: refuses a sensitive change (payout details, e-mail, password, turning 2FA off, withdrawals)
 * unless the signed-in user has no second factor (app or passkey), or proved one in this session within
 * the last STEP_UP_MINUTES. The 403 carries `errors.step_up`, which the web answers with its step-up dialog.
 */
export async function requireFreshSecondFactor(request: FastifyRequest): Promise<void> {
  const userId = request.session?.userId;
  if (userId == null) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
  if (isSecondFactorFresh(request.session?.secondFactorAt)) return;
  const db = request.server.db;
  if (await totpEnabled(db, userId)) throw new AppError('FORBIDDEN', STEP_UP_MESSAGE, { [STEP_UP_FIELD]: [STEP_UP_MESSAGE] });
  if (await userHasPasskey(db, userId)) throw new AppError('FORBIDDEN', STEP_UP_PASSKEY_MESSAGE, { [STEP_UP_FIELD]: [STEP_UP_PASSKEY_MESSAGE] });
}

/** Proves the second factor for this session (the step-up call, a 2FA code given with a change). */
export async function stepUp(request: FastifyRequest, input: { code?: string; recovery_code?: string }) {
  const session = request.session;
  if (!session?.userId) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
  const app = request.server;
  await verifySecondFactor(app.db, app.config.sessionSecret, session.userId, request.ip, input);
  await recordSecondFactor(app.db, session);
}

export const STAFF_SECOND_FACTOR_MESSAGE =
  'Staff accounts need two-factor sign-in. Set it up on your dashboard under Security (/dashboard/security), then come back.';

/**
 * The staff rule (issue 21): in production every /api/admin call from a staff account without a
 * second factor is refused. Registered as a preValidation hook in the admin scope, so it runs after
 * routing and after the admin guard has loaded the user.
 */
export async function requireStaffSecondFactor(request: FastifyRequest): Promise<void> {
  const app = request.server;
  if (!app.config.isProduction || !request.user) return;
  if (!(await hasSecondFactor(app.db, request.user.id))) throw new AppError('FORBIDDEN', STAFF_SECOND_FACTOR_MESSAGE);
}
