import { healthAnswer, readyAnswer } from '@atelier/shared';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';

const tags = ['health'];

/** Liveness (the process answers) and readiness (the database answers). */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { schema: { tags, security: [], summary: 'Liveness: the process answers', response: { 200: healthAnswer } } }, async () =>
    ok({ uptime: Math.round(process.uptime()) }),
  );
  app.get(
    '/readyz',
    { schema: { tags, security: [], summary: 'Readiness: the database answers and the server is not draining', response: { 200: readyAnswer } } },
    async () => {
      // A server that is shutting down asks the load balancer to send new visitors elsewhere.
      if (app.lifecycle.draining) throw new AppError('UNAVAILABLE', 'This server is shutting down.');
      try {
        await app.db.execute(sql`select 1`);
      } catch {
        throw new AppError('UNAVAILABLE', 'The database is not answering.');
      }
      return ok({ database: 'up' as const });
    },
  );
};
