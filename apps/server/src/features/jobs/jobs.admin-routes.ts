import { adminJob, adminJobsPage, adminJobsQuery, idParam, okEnvelope } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { recordAudit } from '../audit';
import { listJobs, retryJob, toAdminJob } from './jobs.admin';

const jobIdParams = z.object({ id: idParam('job id') });

/** The job queue in the back office, under /api/admin: what waits, runs and failed (with its last error), and a retry. */
export const jobsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/jobs',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: adminJobsQuery, response: { 200: okEnvelope(adminJobsPage) } } },
    async (request) => ok(await listJobs(app.db, request.query)),
  );

  app.post(
    '/jobs/:id/retry',
    { config: guard('admin'), schema: { tags: ['admin'], params: jobIdParams, response: { 200: okEnvelope(adminJob) } } },
    async (request) => {
      const staffId = request.user!.id;
      const { before, after } = await retryJob(app.db, request.params.id);
      await recordAudit(app.db, {
        staffId,
        action: 'job.retry',
        subjectType: 'job',
        subjectId: before.id,
        before: { state: before.state, attempts: before.attempts },
        after: { state: after.state, attempts: after.attempts },
      });
      request.log.info({ jobId: before.id, job: before.name, by: staffId }, 'job retried by staff');
      return ok(toAdminJob(after), 'The job will run again shortly.');
    },
  );
};
