import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { msg, SESSION_IDLE_SECONDS } from '@atelier/shared';
import { eq, lt, or } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/client';
import { sessions } from '../db/schema';
import { AppError } from './app-error';
import { coarseIp } from './client-hints';

export const SESSION_COOKIE = 'atelier_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
/** However active, a session ends after this long and the user signs in again. */
export const SESSION_ABSOLUTE_SECONDS = 24 * 60 * 60;
/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Sliding sessions (issue 18 bug 2): the cookies live SESSION_IDLE_SECONDS from when they were last
 * sent. A request once half of that has passed sends them again (a new idle window, never past the
 * absolute limit), so an active user stays signed in until SESSION_ABSOLUTE_SECONDS after sign-in.
 */
export const COOKIE_RESEND_AFTER_SECONDS = SESSION_IDLE_SECONDS / 2;

export type Session = {
  id: string;
  userId: number | null;
  csrfToken: string;
  lastSeenAt: Date;
  expiresAt: Date;
  /** The session was signed in to an account staff have since blocked (its calls are told so). */
  blocked?: boolean;
  /** When its user last proved a second factor in this session (step-up, features/security). */
  secondFactorAt?: Date | null;
  /** When this session last proved who it is by any means: the sign-in itself, a password or a second factor. */
  provedAt?: Date | null;
};

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
  interface FastifyContextConfig {
    /** false: the route proves its caller another way (a signed webhook, a signed single-use form token). */
    csrf?: boolean;
  }
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieOptions(app: FastifyInstance) {
  return { path: '/', sameSite: 'lax' as const, secure: app.config.publicUrl.startsWith('https://') };
}

/** Sends both cookies for a fresh idle window, cut short where the session's absolute limit comes first. */
function setCookies(app: FastifyInstance, reply: FastifyReply, token: string, csrf: string, expiresAt: Date, now: number) {
  const base = cookieOptions(app);
  const maxAge = Math.max(0, Math.min(SESSION_IDLE_SECONDS, Math.floor((expiresAt.getTime() - now) / 1000)));
  reply.setCookie(SESSION_COOKIE, token, { ...base, httpOnly: true, maxAge });
  reply.setCookie(XSRF_COOKIE, csrf, { ...base, httpOnly: false, maxAge });
}

async function insertSession(db: Db, userId: number | null, userAgent: string, ipHint: string, secondFactor: boolean) {
  const token = newToken();
  const csrf = newToken();
  const now = new Date();
  const id = hashToken(token);
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_SECONDS * 1000);
  const secondFactorAt = secondFactor ? now : null;
  // Signing in is itself a proof (a guest session has none): a factor change right after needs no second.
  const provedAt = userId == null ? null : now;
  await db.insert(sessions).values({
    id,
    userId,
    csrfToken: csrf,
    lastSeenAt: now,
    cookieSentAt: now,
    expiresAt,
    userAgent: userAgent.slice(0, 300),
    ipHint,
    secondFactorAt,
    provedAt,
  });
  return { token, session: { id, userId, csrfToken: csrf, lastSeenAt: now, expiresAt, secondFactorAt, provedAt } satisfies Session };
}

/**
 * Starts a fresh session (a new id: login, logout and register rotate it) and sets both cookies.
 * `secondFactor`: the sign-in proved a second factor (a TOTP code, a passkey), which step-up counts.
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number | null,
  opts: { secondFactor?: boolean } = {},
): Promise<Session> {
  const app = request.server;
  if (request.session) await app.db.delete(sessions).where(eq(sessions.id, request.session.id));
  const userAgent = request.headers['user-agent'] ?? '';
  const { token, session } = await insertSession(app.db, userId, userAgent, userId == null ? '' : coarseIp(request.ip), opts.secondFactor === true);
  setCookies(app, reply, token, session.csrfToken, session.expiresAt, session.lastSeenAt.getTime());
  request.session = session;
  return session;
}

/**
 * A block signs the account out of every session at once; each stays a guest session that remembers
 * the block, so its browser's next guarded call is answered "your account is blocked" (issue 18 bug 3).
 */
export async function endSessionsForBlock(db: Db, userId: number) {
  await db.update(sessions).set({ userId: null, blockedUserId: userId }).where(eq(sessions.userId, userId));
}

/** After an unblock, the remembered block notices go: those browsers are plain signed-out guests. */
export async function forgetBlockNotices(db: Db, userId: number) {
  await db.delete(sessions).where(eq(sessions.blockedUserId, userId));
}

/** Ends every session of a user except, optionally, the one in use. */
export async function endUserSessions(db: Db, userId: number, exceptId?: string) {
  const all = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
  for (const s of all) if (s.id !== exceptId) await db.delete(sessions).where(eq(sessions.id, s.id));
}

async function loadSession(request: FastifyRequest, reply: FastifyReply): Promise<Session | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token || token.length > 100) return null;
  const db = request.server.db;
  const [row] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.id, hashToken(token)))
    .limit(1);
  if (!row) return null;
  const now = Date.now();
  if (row.expiresAt.getTime() <= now || row.lastSeenAt.getTime() + SESSION_IDLE_SECONDS * 1000 <= now) {
    await db.delete(sessions).where(eq(sessions.id, row.id));
    return null;
  }
  const canResend = request.routeOptions.config?.renewCookies !== false;
  const resend = canResend && now - row.cookieSentAt.getTime() >= COOKIE_RESEND_AFTER_SECONDS * 1000;
  if (resend) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now), cookieSentAt: new Date(now) })
      .where(eq(sessions.id, row.id));
    setCookies(request.server, reply, token, row.csrfToken, row.expiresAt, now);
  } else if (now - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, row.id));
  }
  return {
    id: row.id,
    userId: row.userId,
    csrfToken: row.csrfToken,
    lastSeenAt: row.lastSeenAt,
    expiresAt: row.expiresAt,
    blocked: row.blockedUserId !== null,
    secondFactorAt: row.secondFactorAt,
    provedAt: row.provedAt,
  };
}

/** Records that the session's user just proved a second factor (the step-up freshness marker); it is a proof too. */
export async function recordSecondFactor(db: Db, session: Session) {
  const now = new Date();
  await db.update(sessions).set({ secondFactorAt: now, provedAt: now }).where(eq(sessions.id, session.id));
  session.secondFactorAt = now;
  session.provedAt = now;
}

/** Records that the session's user just proved who they are with the password (an account with no second factor). */
export async function recordPasswordProof(db: Db, session: Session) {
  const now = new Date();
  await db.update(sessions).set({ provedAt: now }).where(eq(sessions.id, session.id));
  session.provedAt = now;
}

/** Removes sessions past their idle or absolute limit; run now and then. */
export async function purgeExpiredSessions(db: Db) {
  const idleCutoff = new Date(Date.now() - SESSION_IDLE_SECONDS * 1000);
  await db.delete(sessions).where(or(lt(sessions.expiresAt, new Date()), lt(sessions.lastSeenAt, idleCutoff)));
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false` exempts an unsafe route from the CSRF check; only for callers that prove themselves
     * another way (a payment webhook's signature, a single-use token in a hosted form).
     */
    csrf?: boolean;
    /** `true` loads the session on a route outside /api (pages that act for the visitor). */
    session?: boolean;
    /**
     * `false`: the route takes over the raw response (a stream), which carries no cookies, so the
     * sliding renewal waits for the browser's next ordinary call.
     */
    renewCookies?: boolean;
  }
}

/** The session cookie belongs to the API, the CSRF cookie route and developer pages. */
function wantsSession(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (!route) return false;
  return request.routeOptions.config?.session === true || route.startsWith('/api/') || route.startsWith('/sanctum/') || route.startsWith('/dev/');
}

/** The X-XSRF-TOKEN header as the browser sent it (axios copies the cookie, which may be %-encoded). */
function sentCsrfToken(request: FastifyRequest): string {
  const header = request.headers[XSRF_HEADER];
  if (typeof header !== 'string' || header.length === 0 || header.length > 200) return '';
  try {
    return decodeURIComponent(header);
  } catch {
    return '';
  }
}

/**
 * Laravel Sanctum's SPA mode: GET /sanctum/csrf-cookie hands out a readable XSRF-TOKEN cookie; every
 * state-changing call must echo it in X-XSRF-TOKEN. The check is decided after routing, from the
 * matched route's configuration (never from the raw URL, which the router decodes differently), and
 * runs before the body is parsed: every unsafe method is checked unless its route says `csrf: false`.
 */
export function registerSessions(app: FastifyInstance) {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request, reply) => {
    const unsafe = STATE_CHANGING.has(request.method);
    // No route matched: the not-found handler answers and nothing runs that a forged request could use.
    if (!request.routeOptions.url) return;
    const checkCsrf = unsafe && request.routeOptions.config?.csrf !== false;
    if (!wantsSession(request) && !checkCsrf) return;
    request.session = await loadSession(request, reply);
    if (!checkCsrf) return;
    const sent = sentCsrfToken(request);
    if (!request.session || !sent || !safeEqual(sent, request.session.csrfToken)) {
      throw new AppError('CSRF_MISMATCH', msg('request.csrf_mismatch'));
    }
  });

  const csrfCookieSchema = {
    tags: ['auth'],
    summary: 'Start or renew the session: sets the session cookie and the readable XSRF-TOKEN cookie',
    response: { 204: z.null().describe('The cookies are set.') },
  };
  app.get('/sanctum/csrf-cookie', { schema: csrfCookieSchema }, async (request, reply) => {
    if (request.session) {
      // Same session: re-send the cookies so an expired XSRF cookie is restored.
      const token = request.cookies[SESSION_COOKIE]!;
      const now = Date.now();
      await app.db
        .update(sessions)
        .set({ cookieSentAt: new Date(now) })
        .where(eq(sessions.id, request.session.id));
      setCookies(app, reply, token, request.session.csrfToken, request.session.expiresAt, now);
    } else {
      await startSession(request, reply, null);
    }
    return reply.code(204).send();
  });
}

export function isSignedIn(request: FastifyRequest): boolean {
  return request.session?.userId != null;
}
