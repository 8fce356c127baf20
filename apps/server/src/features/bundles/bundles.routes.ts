import { bundleAnswer, bundleList, bundleParams, bundleWorks, createBundleInput, okEnvelope } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { bundleableWorks, listCreatorBundles, moveBundle, proposeBundle, toBundles } from './bundles.queries';

/** A creator's bundle proposals (issue 34): propose, list, withdraw while pending. */
export const bundlesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['bundles'];

  app.get('/seller/bundles', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(bundleList) } } }, async (request) =>
    ok({ bundles: await listCreatorBundles(app.db, currentUser(request).id) }),
  );

  app.get('/seller/bundles/works', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(bundleWorks) } } }, async (request) =>
    ok({ works: await bundleableWorks(app.db, currentUser(request).id) }),
  );

  app.post(
    '/seller/bundles',
    { config: guard('verified'), schema: { tags, body: createBundleInput, response: { 200: okEnvelope(bundleAnswer) } } },
    async (request) =>
      ok({ bundle: await proposeBundle(app.db, currentUser(request).id, request.body) }, 'The bundle is sent for review. We will tell you when it is on sale.'),
  );

  app.post(
    '/seller/bundles/:id/withdraw',
    { config: guard('verified'), schema: { tags, params: bundleParams, response: { 200: okEnvelope(bundleAnswer) } } },
    async (request) => {
      const me = currentUser(request).id;
      const row = await app.db.transaction((tx) =>
        moveBundle(tx, { bundleId: request.params.id, to: 'withdrawn', actor: 'creator', actorId: me, ownerId: me }),
      );
      return ok({ bundle: (await toBundles(app.db, [row]))[0]! }, 'The bundle is withdrawn.');
    },
  );
};
