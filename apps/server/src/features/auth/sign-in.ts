import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { startSession } from '../../lib/session';
import { sendNewBrowserAlert } from '../security';

/**
 * The steps every sign-in shares (issue 29): the device cookie, the pending second-factor step, and the
 * finish. The password step is in auth.routes.ts; the passkey that finishes a password sign-in is in
 * the passkeys feature, which uses these.
 */

/** A signed cookie naming the accounts that signed in successfully from this browser (device cookie, OWASP). */
const DEVICE_COOKIE = 'atelier_device';
const DEVICE_DAYS = 180;

function deviceTag(secret: string, email: string) {
  return createHmac('sha256', secret).update(`device:${email}`).digest('base64url').slice(0, 22);
}

export function knownDevice(request: FastifyRequest, email: string): boolean {
  const raw = request.cookies[DEVICE_COOKIE];
  if (!raw || raw.length > 2000) return false;
  const tag = deviceTag(request.server.config.sessionSecret, email);
  return raw.split('.').includes(tag);
}

export function rememberDevice(app: FastifyInstance, reply: FastifyReply, email: string) {
  const request = reply.request;
  const tags = (request.cookies[DEVICE_COOKIE] ?? '').split('.').filter((t) => /^[\w-]{22}$/.test(t));
  const tag = deviceTag(app.config.sessionSecret, email);
  const next = [tag, ...tags.filter((t) => t !== tag)].slice(0, 5).join('.');
  reply.setCookie(DEVICE_COOKIE, next, {
    path: '/api/login',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.publicUrl.startsWith('https://'),
    maxAge: DEVICE_DAYS * 86_400,
  });
}
/**
 * Between the right password and the second factor (issue 21): a short-lived cookie, signed with the
 * session secret, naming the account. No session exists until POST /login/2fa checks the code.
 */
export const PENDING_COOKIE = 'atelier_2fa';
const PENDING_SECONDS = 300;

export function setPendingSignIn(app: FastifyInstance, reply: FastifyReply, userId: number) {
  reply.setCookie(PENDING_COOKIE, `${userId}.${Date.now() + PENDING_SECONDS * 1000}`, {
    path: '/api/login',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.publicUrl.startsWith('https://'),
    maxAge: PENDING_SECONDS,
    signed: true,
  });
}

/** The account waiting for its second factor, or null when there is none or it has expired. */
export function pendingSignIn(request: FastifyRequest): number | null {
  return pendingSignInStep(request)?.userId ?? null;
}

/**
 * The pending step itself: the account and the moment it expires, which together name this one
 * password step (a passkey challenge for it is bound to both, so it cannot serve another sign-in).
 */
export function pendingSignInStep(request: FastifyRequest): { userId: number; until: number } | null {
  const raw = request.cookies[PENDING_COOKIE];
  if (!raw || raw.length > 300) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  const [id, until] = unsigned.value.split('.').map(Number);
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(until) || until! < Date.now()) return null;
  return { userId: id!, until: until! };
}

/** Ends the pending step (the second factor was proved, or the sign-in starts over). */
export function clearPendingSignIn(reply: FastifyReply) {
  reply.clearCookie(PENDING_COOKIE, { path: '/api/login' });
}

/** The end of every successful sign-in: a new session, the device remembered, the owner told of a new browser. */
export async function finishSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: number; email: string; name: string },
  secondFactor: boolean,
) {
  const email = user.email.toLowerCase();
  const newBrowser = !knownDevice(request, email);
  await startSession(request, reply, user.id, { secondFactor });
  rememberDevice(app, reply, email);
  if (newBrowser) await sendNewBrowserAlert(app, request, user);
  request.log.info({ userId: user.id }, 'user signed in');
}
