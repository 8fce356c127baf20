import { isAuthAnswer } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isSignedIn } from '../../lib/session';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/is-auth', { schema: { tags: ['auth'], response: { 200: isAuthAnswer } } }, async (request) => ({
    status: 'OK' as const,
    authenticated: isSignedIn(request),
  }));
};
