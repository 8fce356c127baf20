import { auditEntry, auditQuery, okEnvelope } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { listAudit } from './audit';

/** The staff audit log, under /api/admin: who did what to which subject, with before and after. */
export const auditAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: auditQuery, response: { 200: okEnvelope(z.array(auditEntry)) } } },
    async (request) => ok(await listAudit(app.db, request.query)),
  );
};
