import { adminReportGroup, adminReportsQuery, okEnvelope, report, reportAppealDecideInput, reportDecideInput, reportIdParams } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { decideAppeal, decideReport, listReportGroups } from './reports';

/** The staff queue of reports (issue 33): list by status grouped by subject, decide, answer appeals. */
export const reportsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['admin'];

  app.get(
    '/reports',
    { config: guard('admin'), schema: { tags, querystring: adminReportsQuery, response: { 200: okEnvelope(z.array(adminReportGroup)) } } },
    async (request) => ok(await listReportGroups(app.db, request.query.status)),
  );

  app.post(
    '/reports/:id/decide',
    { config: guard('admin'), schema: { tags, params: reportIdParams, body: reportDecideInput, response: { 200: okEnvelope(report) } } },
    async (request) => {
      const decided = await decideReport(app.db, request.user!.id, request.params.id, request.body);
      request.log.info({ reportId: decided.id, decision: decided.decision, by: request.user!.id }, 'report decided');
      return ok(decided, 'The decision is recorded; the author and the reporters were told.');
    },
  );

  app.post(
    '/reports/:id/appeal-decide',
    { config: guard('admin'), schema: { tags, params: reportIdParams, body: reportAppealDecideInput, response: { 200: okEnvelope(report) } } },
    async (request) => {
      const decided = await decideAppeal(app.db, request.user!.id, request.params.id, request.body);
      request.log.info({ reportId: decided.id, outcome: request.body.outcome, by: request.user!.id }, 'appeal decided');
      return ok(decided, request.body.outcome === 'reversed' ? 'The decision is reversed and the content restored.' : 'The decision is upheld.');
    },
  );
};
