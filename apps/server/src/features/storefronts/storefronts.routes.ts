import { randomBytes } from 'node:crypto';
import { BANNER_MAX_BYTES, currencyOnlyQuery, msg, okEnvelope, ownStorefront, storefront, storefrontParams, updateStorefrontInput } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { notFound } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { readUploadedPicture } from '../../lib/image-upload';
import { findUserByIdOrNickname } from '../users';
import { readOwnStorefront, readStorefront, saveStorefront, setBanner } from './storefronts.queries';

/** The banner as stored: wide, re-encoded from the pixels (no EXIF, nothing hidden kept). */
const BANNER_SIZE = { width: 1500, height: 500 };

/** Storefronts (issue 34): the public read, and the owner's editor (headline, links, featured works, banner). */
export const storefrontsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['storefronts'];

  app.get(
    '/creators/:key/storefront',
    { schema: { tags, params: storefrontParams, querystring: currencyOnlyQuery, response: { 200: okEnvelope(storefront) } } },
    async (request) => {
      // A visitor reads the replica; a signed-in viewer the primary (the owner just saved it), as the profile does.
      const db = request.session?.userId ? app.db : app.readDb;
      const creator = await findUserByIdOrNickname(db, request.params.key);
      // A profile staff removed after a report (issue 33) is gone from public view, like a deleted one.
      if (!creator || creator.moderation === 'removed') throw notFound('This creator does not exist.');
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      return ok(await readStorefront(db, creator, currency));
    },
  );

  app.get('/seller/storefront', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(ownStorefront) } } }, async (request) =>
    ok(await readOwnStorefront(app.db, currentUser(request).id)),
  );

  app.put(
    '/seller/storefront',
    { config: guard('verified'), schema: { tags, body: updateStorefrontInput, response: { 200: okEnvelope(ownStorefront) } } },
    async (request) => ok(await saveStorefront(app.db, currentUser(request).id, request.body), 'Your storefront was saved.'),
  );

  app.post(
    '/seller/storefront/banner',
    { config: guard('verified'), schema: { tags, consumes: ['multipart/form-data'], response: { 200: okEnvelope(ownStorefront) } } },
    async (request) => {
      const user = currentUser(request);
      const data = await readUploadedPicture(request, { field: 'banner', maxBytes: BANNER_MAX_BYTES, tooLarge: msg('storefront.banner_too_large') });
      const key = `banners/${user.id}/${randomBytes(8).toString('hex')}.webp`;
      const image = await sharp(data).rotate().resize(BANNER_SIZE.width, BANNER_SIZE.height, { fit: 'cover' }).webp({ quality: 82 }).toBuffer();
      await app.storage.putPublic(key, image);
      const before = await setBanner(app.db, user.id, key);
      if (before) await app.storage.removePublic(before);
      return ok(await readOwnStorefront(app.db, user.id), 'The banner was uploaded.');
    },
  );

  app.delete('/seller/storefront/banner', { config: guard('verified'), schema: { tags, response: { 200: okEnvelope(ownStorefront) } } }, async (request) => {
    const user = currentUser(request);
    const before = await setBanner(app.db, user.id, null);
    if (before) await app.storage.removePublic(before);
    return ok(await readOwnStorefront(app.db, user.id), 'The banner was removed.');
  });
};
