import { okEnvelope, productVersion, productVersionFields, productVersionParams, productVersions } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { products } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { type CheckedFile, checkFormFile, readFileForm, type StoredOfferFile, storableFileName, storeOfferFile } from '../offers';
import { registerVersionJobs } from './notify-buyers';
import { addVersion, listVersions, lockOwnWork, toVersion, versionsAudience } from './versions.queries';

/** A prompt's text is what a buyer gets; at most this much of the file is kept (as for an offered prompt). */
const PROMPT_TEXT_MAX = 100_000;
const tags = ['versions'];

/**
 * Product updates (issue 34): a creator ships a new version of their own listed work; its buyers,
 * and while it is in the shop anyone, read the versions with their notes and dates.
 */
export const versionsRoutes: FastifyPluginAsyncZod = async (app) => {
  registerVersionJobs(app);

  app.post(
    '/seller/products/:id/versions',
    {
      config: guard('verified'),
      schema: { tags, params: productVersionParams, consumes: ['multipart/form-data'], response: { 200: okEnvelope(productVersion) } },
    },
    async (request) => {
      const user = currentUser(request);
      const productId = request.params.id;
      // The work is looked at before the upload is read: another creator's work is a 404 whatever was sent.
      const [owner] = await app.db
        .select({ authorId: products.authorId, platformOwned: products.platformOwned, productType: products.productType })
        .from(products)
        .where(eq(products.id, productId));
      if (!owner || owner.authorId !== user.id || owner.platformOwned) throw notFound('This work was not found among your listed works.');
      if (!request.isMultipart()) throw new AppError('VALIDATION', 'Please upload a file.', { file: ['Please upload a file.'] });
      const form = await readFileForm(request, { fileField: 'file', fields: ['notes'] });
      const errors: Record<string, string[]> = {};
      const parsed = productVersionFields.safeParse(form.fields);
      if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'notes')] ??= [issue.message];
      let checked: CheckedFile | undefined;
      const result = checkFormFile(form);
      if ('error' in result) errors.file = [result.error];
      else if (owner.productType === 'prompt' && result.type !== 'txt') errors.file = ["A prompt's new version must be a text (.txt) file."];
      else checked = result;
      if (!parsed.success || !checked || !form.file || Object.keys(errors).length) {
        throw new AppError('VALIDATION', Object.values(errors)[0]?.[0] ?? 'The given data was invalid.', errors);
      }
      const file = form.file;
      const [work] = await app.db.select({ title: products.title }).from(products).where(eq(products.id, productId));
      let stored: StoredOfferFile;
      try {
        stored = await storeOfferFile(app.storage, { data: file.data, checked, title: work!.title });
      } catch (err) {
        request.log.info({ err }, 'version file could not be read');
        throw new AppError('VALIDATION', 'This file could not be read.', { file: ['This file could not be read.'] });
      }
      const promptText = owner.productType === 'prompt' ? file.data.toString('utf8').trim().slice(0, PROMPT_TEXT_MAX) : null;
      const row = await app.db.transaction(async (tx) => {
        const product = await lockOwnWork(tx, user.id, productId);
        return addVersion(tx, product, {
          notes: parsed.data.notes,
          fileType: stored.fileType,
          originalPath: stored.originalPath,
          originalName: storableFileName(file.name),
          previewPath: stored.previewPath,
          fileMeta: stored.fileMeta,
          promptText,
        });
      });
      request.log.info({ productId, versionId: row.id, status: row.status }, 'product version added');
      return ok(
        toVersion(row, true),
        row.status === 'published'
          ? 'The new version is published: your buyers are being told.'
          : "The new file is of another type than your work's: it is published once staff have reviewed it.",
      );
    },
  );

  app.get('/products/:id/versions', { schema: { tags, params: productVersionParams, response: { 200: okEnvelope(productVersions) } } }, async (request) => {
    const viewerId = request.session?.userId ?? null;
    const audience = await versionsAudience(app.db, request.params.id, viewerId);
    if (!audience) throw notFound('This work was not found.');
    return ok(await listVersions(app.db, request.params.id, audience.creator));
  });
};
