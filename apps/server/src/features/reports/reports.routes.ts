import { okEnvelope, report, reportAppealInput, reportIdParams, reportInput, statementOfReasons, transparencyReport } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../../db/schema';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { appealReport, createReport, listMyReports, listMyStatements, readReport, transparencyFigures } from './reports';

/** Notice and action (issue 33): anyone reports; the reporter and the author read; the author appeals; anyone reads the figures. */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['reports'];

  /** Guests included (CSRF as every unsafe call): a guest gives an e-mail; a signed-in reporter's is used when none is given. */
  app.post('/reports', { schema: { tags, body: reportInput, response: { 200: okEnvelope(report).extend({ message: z.string() }) } } }, async (request) => {
    const userId = request.session?.userId ?? null;
    const [user] =
      userId === null
        ? []
        : await app.db
            .select({ id: users.id, email: users.email, name: users.name, surname: users.surname, deletedAt: users.deletedAt })
            .from(users)
            .where(eq(users.id, userId))
            .limit(1);
    const created = await createReport(app.db, request.body, { user: user && !user.deletedAt ? user : null, ip: request.ip });
    request.log.info({ reportId: created.id, subjectType: created.subject.type }, 'report filed');
    return { status: 'OK' as const, payload: created, message: 'Thank you. We sent you a confirmation, and we will tell you what we decide.' };
  });

  app.get('/user/reports', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(z.array(report)) } } }, async (request) =>
    ok(await listMyReports(app.db, currentUser(request).id)),
  );

  /** The statements of reasons about the user's own content. */
  app.get(
    '/user/reports/statements',
    { config: guard('user'), schema: { tags, response: { 200: okEnvelope(z.array(statementOfReasons)) } } },
    async (request) => ok(await listMyStatements(app.db, currentUser(request).id)),
  );

  app.get(
    '/reports/:id',
    {
      config: guard('user'),
      schema: { tags, params: reportIdParams, response: { 200: okEnvelope(z.object({ report, statement: statementOfReasons.nullable() })) } },
    },
    async (request) => ok(await readReport(app.db, currentUser(request).id, request.params.id)),
  );

  app.post(
    '/reports/:id/appeal',
    { config: guard('user'), schema: { tags, params: reportIdParams, body: reportAppealInput, response: { 200: okEnvelope(statementOfReasons) } } },
    async (request) => {
      const statement = await appealReport(app.db, currentUser(request).id, request.params.id, request.body.message);
      request.log.info({ reportId: request.params.id }, 'decision appealed');
      return ok(statement, 'Your appeal was sent. A person on our staff will look at the decision again.');
    },
  );

  app.get('/transparency', { schema: { tags, response: { 200: transparencyReport } } }, async () => ok(await transparencyFigures(app.db)));
};
