import { isAuthAnswer, okMessage } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isSignedIn, startSession } from '../../lib/session';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/is-auth', { schema: { tags: ['auth'], response: { 200: isAuthAnswer } } }, async (request) => ({
    status: 'OK' as const,
    authenticated: isSignedIn(request),
  }));

  /** Destroys the session on the server and hands out a fresh anonymous one (new id, new CSRF token). */
  app.post('/logout', { schema: { tags: ['auth'], response: { 200: okMessage } } }, async (request, reply) => {
    await startSession(request, reply, null);
    return { status: 'OK' as const, message: 'You have been logged out.' };
  });
};
