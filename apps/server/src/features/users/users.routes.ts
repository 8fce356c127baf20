import { randomBytes } from 'node:crypto';
import {
  AVATAR_MAX_BYTES,
  amountToMinor,
  changePasswordInput,
  deleteAccountInput,
  okEnvelope,
  okMessage,
  publicProfile,
  publicProfileParams,
  updateProfileInput,
  userProfile,
  userProfileWithBalance,
  userPromptSummary,
} from '@atelier/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { z } from 'zod';
import { products, sessions, storefronts, storefrontWorks, users } from '../../db/schema';
import { notFound, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { readUploadedPicture } from '../../lib/image-upload';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { enforceRateLimit } from '../../lib/rate-limit';
import { startSession } from '../../lib/session';
import { balanceAnswer } from '../ledger';
import { requireFreshSecondFactor, revokeOtherSessions } from '../security';
import { deletionBlockers, deletionRefused } from './account-deletion';
import { sendVerificationMail } from './users.mail';
import {
  creatorStats,
  findUserByIdOrNickname,
  isEmailTaken,
  isNicknameTaken,
  normalizePhone,
  passwordProblem,
  toProfile,
  toPublicProfile,
} from './users.queries';

/** New e-mail addresses a user may try per hour. */
const EMAIL_CHANGE_TRIES = { limit: 5, windowSeconds: 3600 };

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/user/profile', { config: guard('user'), schema: { tags: ['profile'], response: { 200: okEnvelope(userProfileWithBalance) } } }, async (request) => {
    const user = currentUser(request);
    // A stale saved currency must not break the profile: the balance falls back to the default currency.
    const currency = await resolveDisplayCurrency(app, requestedCurrency(request)).catch(() => resolveDisplayCurrency(app, undefined));
    return ok({ ...toProfile(user), balance: await balanceAnswer(app.db, user.id, currency) });
  });

  app.put(
    '/user/profile',
    { config: guard('user'), schema: { tags: ['profile'], body: updateProfileInput, response: { 200: okEnvelope(userProfile) } } },
    async (request) => {
      const user = currentUser(request);
      const body = request.body;
      const fields: Record<string, string> = {};
      let phone = '';
      if (body.phone) {
        const normalized = normalizePhone(body.phone);
        if (!normalized) fields.phone = 'Please enter a valid phone number with its country code.';
        else phone = normalized;
      }
      const emailChanged = body.email.toLowerCase() !== user.email.toLowerCase();
      // A new e-mail takes over password resets: with a second factor it needs a fresh one (issue 21).
      if (emailChanged) await requireFreshSecondFactor(request);
      if (emailChanged) {
        // Each new address tried is counted first: the answer tells whether an account exists, so it is rationed.
        await enforceRateLimit(app.db, `email-change:${user.id}`, EMAIL_CHANGE_TRIES, 'Too many e-mail changes.');
        if (await isEmailTaken(app.db, body.email, user.id)) fields.email = 'An account with this e-mail already exists.';
      }
      if (body.nickname && (await isNicknameTaken(app.db, body.nickname, user.id))) fields.nickname = 'This nickname is taken. Please choose another.';
      if (Object.keys(fields).length) throw validationError(fields);

      const [updated] = await app.db
        .update(users)
        .set({
          name: body.name,
          surname: body.surname,
          email: body.email,
          phone,
          aboutMe: body.about_me,
          hourlyRateMinor: amountToMinor(body.hourly_rate),
          nickname: body.nickname ?? user.nickname,
          // A new e-mail or phone must be confirmed again.
          emailVerifiedAt: emailChanged ? null : user.emailVerifiedAt,
          phoneVerifiedAt: phone === user.phone ? user.phoneVerifiedAt : null,
          updatedAt: new Date(),
        })
        .where(eq(users.id, user.id))
        .returning();
      if (emailChanged) await sendVerificationMail(app, updated!);
      const message = emailChanged
        ? 'Profile updated successfully! Please confirm your new e-mail address: we have sent you a link.'
        : 'Profile updated successfully!';
      return ok(toProfile(updated!), message);
    },
  );

  app.post(
    '/user/change-password',
    { config: guard('user'), schema: { tags: ['profile'], body: changePasswordInput, response: { 200: okMessage } } },
    async (request) => {
      const user = currentUser(request);
      const { cur_password, new_password } = request.body;
      if (!(await verifyPassword(user.passwordHash, cur_password))) throw validationError({ cur_password: 'The current password is incorrect.' });
      await requireFreshSecondFactor(request);
      const weak = passwordProblem(new_password, user.email);
      if (weak) throw validationError({ new_password: weak });
      await app.db
        .update(users)
        .set({ passwordHash: await hashPassword(new_password), updatedAt: new Date() })
        .where(eq(users.id, user.id));
      // Everyone else signed in as this user is signed out (their live streams end); this browser stays signed in.
      await revokeOtherSessions(app.db, user.id, request.session?.id);
      return { status: 'OK' as const, message: 'Password changed successfully!' };
    },
  );

  app.delete(
    '/user/delete',
    { config: guard('user'), schema: { tags: ['profile'], body: deleteAccountInput, response: { 200: okMessage } } },
    async (request, reply) => {
      const user = currentUser(request);
      if (!(await verifyPassword(user.passwordHash, request.body.password))) throw validationError({ password: 'The password is incorrect.' });
      const oldAvatar = user.avatarPath;
      // Anonymise rather than delete: orders, chats and products of other people keep their rows.
      const oldBanner = await app.db.transaction(async (tx) => {
        // The user's row first, then their ledger accounts (last): a deposit credited meanwhile waits, then is seen.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
        // Refused while money remains or is owed, each case with its own sentence (issue 30 finding 6).
        const blockers = await deletionBlockers(tx, user.id, await app.settings.get());
        if (blockers.length) throw deletionRefused(blockers);
        await tx
          .update(users)
          .set({
            email: `deleted-${user.id}-${randomBytes(4).toString('hex')}@deleted.invalid`,
            passwordHash: await hashPassword(randomBytes(32).toString('hex')),
            name: 'Deleted',
            surname: 'user',
            nickname: `deleted-${user.id}`,
            phone: '',
            aboutMe: '',
            hourlyRateMinor: 0,
            avatarPath: null,
            emailVerifiedAt: null,
            phoneVerifiedAt: null,
            deletedAt: new Date(),
            updatedAt: new Date(),
          })
          .where(eq(users.id, user.id));
        await tx.delete(sessions).where(eq(sessions.userId, user.id));
        // The storefront (issue 34) is the person's own words, links and picture: it goes with them.
        const [storefront] = await tx.delete(storefronts).where(eq(storefronts.creatorId, user.id)).returning({ bannerPath: storefronts.bannerPath });
        await tx.delete(storefrontWorks).where(eq(storefrontWorks.creatorId, user.id));
        return storefront?.bannerPath ?? null;
      });
      if (oldBanner) await app.storage.removePublic(oldBanner);
      if (oldAvatar && !oldAvatar.startsWith('avatars/demo/')) {
        await app.storage.removePublic(oldAvatar);
        await app.storage.removePublic(oldAvatar.replace(/-150\.webp$/, '-300.webp'));
      }
      request.session = null;
      await startSession(request, reply, null);
      return { status: 'OK' as const, message: 'Account deleted successfully!' };
    },
  );

  app.post(
    '/user/upload-avatar',
    { config: guard('user'), schema: { tags: ['profile'], consumes: ['multipart/form-data'], response: { 200: okEnvelope(userProfile) } } },
    async (request) => {
      const user = currentUser(request);
      const data = await readUploadedPicture(request, { field: 'avatar', maxBytes: AVATAR_MAX_BYTES, tooLarge: 'Image size should be less than 2MB' });
      // Re-encoded from the pixels: metadata (EXIF, GPS) and anything hidden in the file are dropped.
      const base = `avatars/${user.id}/${randomBytes(8).toString('hex')}`;
      const [small, large] = await Promise.all([
        sharp(data).rotate().resize(150, 150, { fit: 'cover' }).webp({ quality: 82 }).toBuffer(),
        sharp(data).rotate().resize(300, 300, { fit: 'cover' }).webp({ quality: 82 }).toBuffer(),
      ]);
      await app.storage.putPublic(`${base}-150.webp`, small);
      await app.storage.putPublic(`${base}-300.webp`, large);
      const [updated] = await app.db
        .update(users)
        .set({ avatarPath: `${base}-150.webp`, updatedAt: new Date() })
        .where(eq(users.id, user.id))
        .returning();
      if (user.avatarPath && !user.avatarPath.startsWith('avatars/demo/')) {
        await app.storage.removePublic(user.avatarPath);
        await app.storage.removePublic(user.avatarPath.replace(/-150\.webp$/, '-300.webp'));
      }
      return ok(toProfile(updated!), 'Avatar uploaded successfully!');
    },
  );

  app.get(
    '/user/public-profile/:id',
    { schema: { tags: ['profile'], params: publicProfileParams, response: { 200: okEnvelope(publicProfile) } } },
    async (request) => {
      // A visitor reads the replica; a signed-in viewer the primary, since they may have just followed or renamed.
      const db = request.session?.userId ? app.db : app.readDb;
      const user = await findUserByIdOrNickname(db, request.params.id);
      // A profile staff removed after a report (issue 33) is gone from public view, like a deleted one.
      if (!user || user.moderation === 'removed') throw notFound('This creator does not exist.');
      return ok(toPublicProfile(user, await creatorStats(db, user.id, request.session?.userId ?? null)));
    },
  );

  /** The signed-in user's own prompts (as a creator); purchased prompts appear in order history. */
  app.get(
    '/user/prompts',
    {
      config: guard('verified'),
      schema: {
        tags: ['profile'],
        response: { 200: okEnvelope(z.array(userPromptSummary)) },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const rows = await app.db
        .select({ id: products.id, slug: products.slug, title: products.title, createdAt: products.createdAt })
        .from(products)
        .where(and(eq(products.authorId, userId), eq(products.productType, 'prompt')))
        .orderBy(desc(products.id));
      return ok(rows.map((r) => ({ id: r.id, slug: r.slug, title: r.title, created_at: Math.floor(r.createdAt.getTime() / 1000) })));
    },
  );
};
