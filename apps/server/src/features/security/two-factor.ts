import { createHash, randomBytes } from 'node:crypto';
import { msg, type SecondFactorMethod, STEP_UP_FIELD, STEP_UP_MINUTES } from '@atelier/shared';
import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db } from '../../db/client';
import { passkeys, rateLimits, sessions, userRecoveryCodes, userTotp } from '../../db/schema';
import { findUserById } from '../../db/users';
import { AppError, validationError } from '../../lib/app-error';
import { mailHtml, sendMail } from '../../lib/mail';
import { verifyPassword } from '../../lib/passwords';
import { clearRateLimit, enforceRateLimit, hitRateLimit, releaseRateLimitHit } from '../../lib/rate-limit';
import { openSecret, sealSecret } from '../../lib/secret-box';
import { recordPasswordProof, recordSecondFactor } from '../../lib/session';

const PERIOD = 30;
const ISSUER = 'Atelier';
const SECRET_PURPOSE = 'totp';
/** Codes tried per account and per address in one window, counted before the check (like passwords). */
const CODES_PER_ACCOUNT = { limit: 5, windowSeconds: 60 };
const CODES_PER_ADDRESS = { limit: 20, windowSeconds: 60 };
/** Wrong codes (app or recovery) for one account in an hour before its second-factor sign-in locks (issue 29). */
export const WRONG_CODES_BEFORE_LOCK = 10;
const WRONG_CODES_WINDOW_SECONDS = 3600;
export const CODE_LOCK_MINUTES = 15;
/** Password step-ups tried per account in one window (accounts with no second factor). */
const PASSWORD_PROOFS_PER_ACCOUNT = { limit: 5, windowSeconds: 60 };

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

/** Whether the user holds at least one passkey (the passkeys feature writes them; this one owns the rule). */
export async function userHasPasskey(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
  return row !== undefined;
}

/** The account's second factors: the app (and its unused recovery codes) and passkeys. */
export type SecondFactors = { totp: boolean; recoveryCodes: number; passkey: boolean };

/** All of the account's second factors in one query (sign-in, step-up and the staff rule each ask once). */
export async function secondFactorsOf(db: Db, userId: number): Promise<SecondFactors> {
  const [row] = await db
    .select({
      totp: sql<boolean | string>`exists (select 1 from ${userTotp} where ${userTotp.userId} = ${userId} and ${userTotp.enabledAt} is not null)`,
      codes: sql<
        number | string
      >`(select count(*) from ${userRecoveryCodes} where ${userRecoveryCodes.userId} = ${userId} and ${userRecoveryCodes.usedAt} is null)`,
      passkey: sql<boolean | string>`exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})`,
    })
    .from(sql`(select 1) as one`);
  const yes = (v: boolean | string | undefined) => v === true || v === 't';
  return { totp: yes(row?.totp), recoveryCodes: Number(row?.codes ?? 0), passkey: yes(row?.passkey) };
}

const anyFactor = (f: SecondFactors) => f.totp || f.passkey;

/** Whether the user has any second factor: an authenticator app or a passkey. The staff rule counts either. */
export async function hasSecondFactor(db: Db, userId: number): Promise<boolean> {
  return anyFactor(await secondFactorsOf(db, userId));
}

/** The ways this account can finish a password sign-in, in the order the sign-in page offers them. */
export async function secondFactorMethods(db: Db, userId: number): Promise<SecondFactorMethod[]> {
  const f = await secondFactorsOf(db, userId);
  const methods: SecondFactorMethod[] = [];
  if (f.totp) {
    methods.push('totp');
    if (f.recoveryCodes > 0) methods.push('recovery_code');
  }
  if (f.passkey) methods.push('passkey');
  return methods;
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

const lockKey = (userId: number) => `2fa-lock:${userId}`;
const wrongKey = (userId: number) => `2fa-wrong:${userId}`;

/** Refuses every code for an account whose second-factor sign-in is locked after too many wrong codes. */
async function assertNotLocked(db: Db, userId: number) {
  const [row] = await db
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, lockKey(userId)))
    .limit(1);
  if (!row || row.resetAt.getTime() <= Date.now()) return;
  const minutes = Math.max(1, Math.ceil((row.resetAt.getTime() - Date.now()) / 60_000));
  throw new AppError(
    'RATE_LIMITED',
    `Too many wrong codes for this account. Two-factor sign-in is locked for ${minutes} more minute${minutes === 1 ? '' : 's'}; we have e-mailed the owner.`,
    undefined,
    { 'retry-after': String(minutes * 60) },
  );
}

/**
 * Counts a wrong code against the account (an hour's window, shared by every address and server). The
 * tenth locks second-factor sign-in for CODE_LOCK_MINUTES, starts a new count, and tells the owner.
 */
async function countWrongCode(app: FastifyInstance, userId: number) {
  const db = app.db;
  const { count } = await hitRateLimit(db, wrongKey(userId), WRONG_CODES_WINDOW_SECONDS);
  if (count < WRONG_CODES_BEFORE_LOCK) return;
  await clearRateLimit(db, wrongKey(userId));
  // The lock is a window of its own: it holds until reset_at, whatever else is counted.
  await hitRateLimit(db, lockKey(userId), CODE_LOCK_MINUTES * 60);
  const user = await findUserById(db, userId);
  if (user) {
    const url = `${app.config.publicUrl}/dashboard/security`;
    const lines = [
      `Hello ${user.name},`,
      `Someone entered ${WRONG_CODES_BEFORE_LOCK} wrong two-factor codes for your Atelier account within an hour, so two-factor sign-in is locked for ${CODE_LOCK_MINUTES} minutes.`,
      'They already knew your password, or a signed-in browser of yours asked for the codes. If this was not you, change your password and sign out the other browsers on the Security screen:',
    ];
    await sendMail(db, {
      to: user.email,
      subject: 'Two-factor sign-in locked on your Atelier account',
      text: `${lines.join('\n')}\n${url}`,
      html: mailHtml(lines, { label: 'Open the Security screen', url }),
    });
  }
  app.log.warn({ userId, event: 'second_factor_locked' }, 'second-factor sign-in locked after too many wrong codes');
}

/**
 * Checks a second factor given as an app code or a recovery code, rate-limited per account and per
 * address like passwords (counted before the check; a success takes its hit back), and locked for the
 * account after too many wrong codes in an hour. A refusal is a 422 under the field that was sent.
 */
export async function verifySecondFactor(
  app: FastifyInstance,
  userId: number,
  ip: string,
  input: { code?: string; recovery_code?: string },
): Promise<'code' | 'recovery_code'> {
  const db = app.db;
  const tooMany = 'Too many codes tried.';
  await assertNotLocked(db, userId);
  await enforceRateLimit(db, `2fa:ip:${ip}`, CODES_PER_ADDRESS, tooMany);
  await enforceRateLimit(db, `2fa:account:${userId}`, CODES_PER_ACCOUNT, tooMany);
  let used: 'code' | 'recovery_code';
  if (input.code !== undefined) {
    const result = await checkTotpCode(db, app.config.sessionSecret, userId, input.code);
    if (result !== 'ok') {
      if (result === 'wrong') await countWrongCode(app, userId);
      throw validationError({ code: CODE_MESSAGES[result] });
    }
    used = 'code';
  } else {
    if (!(await useRecoveryCode(db, userId, input.recovery_code ?? ''))) {
      await countWrongCode(app, userId);
      throw validationError({ recovery_code: CODE_MESSAGES.recovery });
    }
    used = 'recovery_code';
  }
  await releaseRateLimitHit(db, [`2fa:ip:${ip}`, `2fa:account:${userId}`]);
  return used;
}

export const STEP_UP_MESSAGE = msg('auth.step_up_totp');
export const STEP_UP_PASSKEY_MESSAGE = msg('auth.step_up_passkey');
export const STEP_UP_PASSWORD_MESSAGE = msg('auth.step_up_password');

export function isSecondFactorFresh(at: Date | null | undefined, now = Date.now()): boolean {
  return !!at && now - at.getTime() < STEP_UP_MINUTES * 60_000;
}

const stepUpRefusal = (message: string) => new AppError('FORBIDDEN', message, { [STEP_UP_FIELD]: [message] });

/** The 403 asking for the account's own second factor: a code when the app is on, else the passkey. */
function secondFactorRefusal(f: SecondFactors): AppError | null {
  if (f.totp) return stepUpRefusal(STEP_UP_MESSAGE);
  if (f.passkey) return stepUpRefusal(STEP_UP_PASSKEY_MESSAGE);
  return null;
}

/**
 * Step-up: refuses a sensitive change (payout details, e-mail, password, withdrawals) unless the
 * signed-in user has no second factor (app or passkey), or proved one in this session within the last
 * STEP_UP_MINUTES. The 403 carries `errors.step_up`, which the web answers with its step-up dialog.
 */
export async function requireFreshSecondFactor(request: FastifyRequest): Promise<void> {
  const userId = request.session?.userId;
  if (userId == null) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
  if (isSecondFactorFresh(request.session?.secondFactorAt)) return;
  const refusal = secondFactorRefusal(await secondFactorsOf(request.server.db, userId));
  if (refusal) throw refusal;
}

/**
 * The rule for changing how someone proves who they are (issue 29): adding, renaming or removing a
 * passkey, setting up or turning off the app, new recovery codes. It needs a fresh proof in this
 * session: the account's second factor when it has one (a session that signed in before it was set up
 * has none), else the password, which a sign-in within the window counts as. A stale session can
 * therefore never plant a factor of its own.
 */
export async function requireFreshProof(request: FastifyRequest): Promise<void> {
  const userId = request.session?.userId;
  if (userId == null) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
  if (isSecondFactorFresh(request.session?.secondFactorAt)) return;
  const refusal = secondFactorRefusal(await secondFactorsOf(request.server.db, userId));
  if (refusal) throw refusal;
  if (!isSecondFactorFresh(request.session?.provedAt)) throw stepUpRefusal(STEP_UP_PASSWORD_MESSAGE);
}

/**
 * Proves it is you again for this session: a code or a recovery code (the second factor), or, for an
 * account with no second factor only, the current password.
 */
export async function stepUp(request: FastifyRequest, input: { code?: string; recovery_code?: string; password?: string }) {
  const session = request.session;
  if (!session?.userId) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
  const app = request.server;
  const userId = session.userId;
  if (input.code === undefined && input.recovery_code === undefined) {
    const factors = await secondFactorsOf(app.db, userId);
    if (anyFactor(factors)) {
      const message = factors.totp
        ? 'Your account has two-factor sign-in: confirm with a code from your app instead of the password.'
        : 'Your account has a passkey: confirm with it instead of the password.';
      throw validationError({ password: message });
    }
    const user = await findUserById(app.db, userId);
    const key = `step-up-password:${userId}`;
    await enforceRateLimit(app.db, key, PASSWORD_PROOFS_PER_ACCOUNT, 'Too many passwords tried.');
    if (!user || !(await verifyPassword(user.passwordHash, input.password ?? ''))) throw validationError({ password: 'The password is incorrect.' });
    await releaseRateLimitHit(app.db, [key]);
    await recordPasswordProof(app.db, session);
    return;
  }
  await verifySecondFactor(app, userId, request.ip, input);
  await recordSecondFactor(app.db, session);
}

export const STAFF_SECOND_FACTOR_MESSAGE =
  'Staff accounts need two-factor sign-in. Set it up on your dashboard under Security (/dashboard/security), then come back.';

export const STAFF_SECOND_FACTOR_PROOF_MESSAGE = 'Please confirm it is you with your second factor before you open the back office.';

/**
 * The staff rule (issues 21 and 29): in production every /api/admin call needs a staff account with a
 * second factor, from a session that proved it (at sign-in or by step-up); a route marked
 * `stepUp: true` (money and settings) needs that proof fresh, inside the step-up window. Registered as
 * a preValidation hook in the admin scope, so it runs after routing and after the admin guard.
 */
export async function requireStaffSecondFactor(request: FastifyRequest): Promise<void> {
  const app = request.server;
  if (!request.user) return;
  // A session that proved a second factor needs no query (removing the last factor forgets every
  // session's proof, see forgetSecondFactorProofs); the account's factors are read only to refuse.
  if (app.config.isProduction && !request.session?.secondFactorAt) {
    const factors = await secondFactorsOf(app.db, request.user.id);
    throw secondFactorRefusal(factors) ?? new AppError('FORBIDDEN', STAFF_SECOND_FACTOR_MESSAGE);
  }
  if (request.routeOptions.config?.stepUp) await requireFreshSecondFactor(request);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A staff action that moves money or changes settings: the second factor must be fresh (issue 29). */
    stepUp?: boolean;
  }
}

/**
 * When the account's last second factor is gone, no session of it has proved one any more: a proof
 * made with a factor that no longer exists opens nothing (the staff rule trusts a session's proof).
 */
async function forgetSecondFactorProofs(db: Db, userId: number): Promise<void> {
  if (anyFactor(await secondFactorsOf(db, userId))) return;
  await db
    .update(sessions)
    .set({ secondFactorAt: null })
    .where(and(eq(sessions.userId, userId), isNotNull(sessions.secondFactorAt)));
}

/** What changed about how the account proves who it is; each is told to the owner by e-mail. */
export type FactorChange = 'passkey_added' | 'passkey_removed' | 'totp_on' | 'totp_off' | 'recovery_codes';

const FACTOR_CHANGE_TEXT: Record<FactorChange, { subject: string; line: (detail?: string) => string }> = {
  passkey_added: {
    subject: 'A passkey was added to your Atelier account',
    line: (d) => `A passkey${d ? ` named "${d}"` : ''} was added to your account. It can sign in without your password.`,
  },
  passkey_removed: {
    subject: 'A passkey was removed from your Atelier account',
    line: (d) => `A passkey${d ? ` named "${d}"` : ''} was removed from your account.`,
  },
  totp_on: {
    subject: 'Two-factor sign-in is on for your Atelier account',
    line: () => 'Two-factor sign-in with an authenticator app was turned on for your account.',
  },
  totp_off: {
    subject: 'Two-factor sign-in is off for your Atelier account',
    line: () => 'Two-factor sign-in with an authenticator app was turned off for your account. Your recovery codes no longer work.',
  },
  recovery_codes: {
    subject: 'New recovery codes for your Atelier account',
    line: () => 'New recovery codes were made for your account. The old ones no longer work.',
  },
};

/**
 * Tells the owner of every change to their factors (issue 29), through the outbox like every mail,
 * with a link to the Security tab, where they can undo it and sign out browsers they do not know.
 */
export async function tellFactorChange(app: FastifyInstance, db: Db, userId: number, change: FactorChange, detail?: string) {
  if (change === 'passkey_removed' || change === 'totp_off') await forgetSecondFactorProofs(db, userId);
  const user = await findUserById(db, userId);
  if (!user) return;
  const url = `${app.config.publicUrl}/dashboard/security`;
  const text = FACTOR_CHANGE_TEXT[change];
  const when = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const lines = [
    `Hello ${user.name},`,
    text.line(detail),
    `When: ${when}`,
    'If this was not you, review your passkeys, two-factor sign-in and sessions on the Security screen now:',
  ];
  await sendMail(db, {
    to: user.email,
    subject: text.subject,
    text: `${lines.join('\n')}\n${url}`,
    html: mailHtml(lines, { label: 'Review your security', url }),
  });
}
