import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { users } from '../db/schema';
import { getSettings } from '../features/site/site.queries';
import { AppError } from './app-error';

export const EMAIL_NOT_VERIFIED = 'Your email address is not verified.';

/** The signed-in user's id, or a 401 for a guest. Every protected handler starts with this. */
export function requireUser(request: FastifyRequest): number {
  const userId = request.session?.userId;
  if (userId == null) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
  return userId;
}

async function loadUser(request: FastifyRequest, userId: number) {
  const [user] = await request.server.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || user.deletedAt) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
  return user;
}

/**
 * Like requireUser, and when the setting is_email_verification_enabled is on, an unverified user
 * gets 403 with SPEC §6's exact message (the client sends them to verify-email).
 */
export async function requireVerifiedUser(request: FastifyRequest) {
  const user = await loadUser(request, requireUser(request));
  if (!user.emailVerifiedAt) {
    const settings = await getSettings(request.server.db);
    if (settings.is_email_verification_enabled) throw new AppError('FORBIDDEN', EMAIL_NOT_VERIFIED);
  }
  return user;
}

/** Back-office calls: a signed-in admin, else 403. */
export async function requireAdmin(request: FastifyRequest) {
  const user = await loadUser(request, requireUser(request));
  if (user.role !== 'admin') throw new AppError('FORBIDDEN', 'This action is for moderators only.');
  return user;
}
