import { msg } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { users } from '../db/schema';
import { AppError } from './app-error';

export const EMAIL_NOT_VERIFIED = msg('auth.email_not_verified');
/** Sign-in refused for an account staff have blocked. */
export const ACCOUNT_BLOCKED = msg('account.blocked');

/** Who may call a route: any signed-in user, one with a verified e-mail (when required), or staff. */
export type AuthLevel = 'user' | 'verified' | 'admin';
export type CurrentUser = typeof users.$inferSelect;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The guard for this route, read by one hook after routing: 401 for a guest, 403 for the wrong role. */
    auth?: AuthLevel;
  }
  interface FastifyRequest {
    /** On a guarded route, the signed-in, not deleted user, loaded once by the guard hook (else null). */
    user: CurrentUser | null;
  }
}

/** Route configuration for a guarded route: `{ config: guard('admin') }`. */
export const guard = (auth: AuthLevel) => ({ auth });

const signInFirst = () => new AppError('UNAUTHENTICATED', 'Please sign in to continue.');

/**
 * One preValidation hook (after routing and body parsing, before the schema runs, so a guest gets
 * 401 rather than a list of field errors): it loads `request.user` once for a signed-in session and
 * enforces the route's `auth` level.
 */
export function registerGuards(app: FastifyInstance) {
  app.decorateRequest('user', null);
  app.addHook('preValidation', async (request) => {
    // Only guarded routes pay for the user row: public reads by signed-in visitors stay one query lighter.
    const level = request.routeOptions.config?.auth;
    if (!level) return;
    const userId = request.session?.userId;
    if (userId != null) {
      const [row] = await app.db.select().from(users).where(eq(users.id, userId)).limit(1);
      // A blocked account has no sessions left; this refuses one that slipped in between.
      request.user = row && !row.deletedAt && !row.blockedAt ? row : null;
    }
    const user = request.user;
    // A session whose account staff blocked: the browser is told why, once per call, not sent to sign in.
    if (!user && request.session?.blocked) throw new AppError('FORBIDDEN', ACCOUNT_BLOCKED);
    if (!user) throw signInFirst();
    if (level === 'admin' && user.role !== 'admin') throw new AppError('FORBIDDEN', msg('request.moderators_only'));
    if (level === 'verified' && !user.emailVerifiedAt && (await app.settings.get()).is_email_verification_enabled) {
      throw new AppError('FORBIDDEN', EMAIL_NOT_VERIFIED);
    }
  });
}

/** The signed-in user of a guarded route (the hook has already refused guests). */
export function currentUser(request: FastifyRequest): CurrentUser {
  if (!request.user) throw signInFirst();
  return request.user;
}
