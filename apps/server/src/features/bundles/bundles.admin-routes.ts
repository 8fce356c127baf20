import { adminBundlesQuery, bundleAnswer, bundleList, bundleParams, okEnvelope, rejectBundleInput } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { listBundlesForStaff, moveBundle, toBundles } from './bundles.queries';

/** Staff review of creator bundles, under /api/admin: approve (published as the creator's pack) or reject with a reason. */
export const bundlesAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['admin'];

  app.get(
    '/bundles',
    { config: guard('admin'), schema: { tags, querystring: adminBundlesQuery, response: { 200: okEnvelope(bundleList) } } },
    async (request) => ok({ bundles: await listBundlesForStaff(app.db, request.query.status) }),
  );

  app.post(
    '/bundles/:id/approve',
    { config: guard('admin'), schema: { tags, params: bundleParams, response: { 200: okEnvelope(bundleAnswer) } } },
    async (request) => {
      const staffId = request.user!.id;
      const row = await app.db.transaction((tx) => moveBundle(tx, { bundleId: request.params.id, to: 'approved', actor: 'staff', actorId: staffId }));
      request.log.info({ bundleId: row.id, by: staffId, packId: row.packId }, 'bundle approved by staff');
      return ok({ bundle: (await toBundles(app.db, [row]))[0]! }, 'The bundle is on sale as a pack.');
    },
  );

  app.post(
    '/bundles/:id/reject',
    { config: guard('admin'), schema: { tags, params: bundleParams, body: rejectBundleInput, response: { 200: okEnvelope(bundleAnswer) } } },
    async (request) => {
      const staffId = request.user!.id;
      const row = await app.db.transaction((tx) =>
        moveBundle(tx, { bundleId: request.params.id, to: 'rejected', actor: 'staff', actorId: staffId, reason: request.body.reason }),
      );
      return ok({ bundle: (await toBundles(app.db, [row]))[0]! }, 'The bundle is rejected; the creator is told why.');
    },
  );
};
