import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error';

/** The signed-in user's id, or a 401 for a guest. Every protected handler starts with this. */
export function requireUser(request: FastifyRequest): number {
  const userId = request.session?.userId;
  if (userId == null) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
  return userId;
}
