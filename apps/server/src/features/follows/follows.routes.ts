import { followedCreator, followParams, followState, okEnvelope } from '@atelier/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { follows } from '../../db/schema';
import { notFound, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { registerWeeklyDigest } from './digest';
import { findCreator, followersCount, listFollowing } from './follows';

/** Following creators (issue 20): their new works ring the follower's bell. */
export const followsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['follows'];
  registerWeeklyDigest(app);
  const answer = okEnvelope(followState);

  app.post('/creators/:nickname/follow', { config: guard('user'), schema: { tags, params: followParams, response: { 200: answer } } }, async (request) => {
    const userId = currentUser(request).id;
    const creator = await findCreator(app.db, request.params.nickname);
    if (!creator) throw notFound('This creator does not exist.');
    if (creator.id === userId) throw validationError({ nickname: 'You cannot follow yourself.' });
    await app.db.insert(follows).values({ followerId: userId, creatorId: creator.id }).onConflictDoNothing();
    return ok({ nickname: creator.nickname, following: true, followers_count: await followersCount(app.db, creator.id) }, `You follow @${creator.nickname}.`);
  });

  app.delete('/creators/:nickname/follow', { config: guard('user'), schema: { tags, params: followParams, response: { 200: answer } } }, async (request) => {
    const userId = currentUser(request).id;
    const creator = await findCreator(app.db, request.params.nickname);
    if (!creator) throw notFound('This creator does not exist.');
    await app.db.delete(follows).where(and(eq(follows.followerId, userId), eq(follows.creatorId, creator.id)));
    return ok({ nickname: creator.nickname, following: false, followers_count: await followersCount(app.db, creator.id) });
  });

  app.get('/user/following', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(z.array(followedCreator)) } } }, async (request) =>
    ok(await listFollowing(app.db, currentUser(request).id)),
  );
};
