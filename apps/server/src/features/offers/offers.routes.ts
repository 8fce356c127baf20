import { amountToMinor, createOfferFields, OFFER_STYLES, offer, offerIdInput, offerStyle, okEnvelope } from '@atelier/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { categories, offers } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { requireSellerDetails } from '../sellers';
import { type CheckedFile, checkFormFile, readFileForm, storableFileName, storeOfferFile } from './offer-file';
import { createProductFromOffer, insertOffer, listUserOffers, moveOffer, toOffer } from './offers.queries';

const FIELDS = ['title', 'description', 'category_id', 'price', 'deal_type', 'confirm', 'keywords'] as const;

const PROMPTS_CATEGORY = 'prompts';
/** A prompt's text is what a buyer gets; at most this much of the offered file is kept. */
const PROMPT_TEXT_MAX = 100_000;

/** The text of an offered prompt (its private original), or null for any other offer. */
export async function offeredPromptText(app: FastifyInstance, offerId: number, userId: number): Promise<string | null> {
  const [row] = await app.db
    .select({ docType: offers.docType, originalPath: offers.originalPath })
    .from(offers)
    .where(and(eq(offers.id, offerId), eq(offers.userId, userId)));
  if (row?.docType !== 'prompt' || !row.originalPath) return null;
  const file = await app.storage.openPrivate(row.originalPath);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim().slice(0, PROMPT_TEXT_MAX);
}

/** The creator's side of offers (SPEC §7 /offer/*). Payout requests live in features/payouts. */
export const offersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/offer/styles', { schema: { tags: ['offers'], response: { 200: okEnvelope(z.array(offerStyle)) } } }, async () =>
    ok(OFFER_STYLES.map((s) => ({ ...s }))),
  );

  app.get('/offer/history', { config: guard('verified'), schema: { tags: ['offers'], response: { 200: okEnvelope(z.array(offer)) } } }, async (request) =>
    ok(await listUserOffers(app.db, currentUser(request).id)),
  );

  app.post(
    '/offer/create',
    { config: guard('verified'), schema: { tags: ['offers'], consumes: ['multipart/form-data'], response: { 200: okEnvelope(offer) } } },
    async (request) => {
      const user = currentUser(request);
      if (!request.isMultipart()) throw new AppError('VALIDATION', 'Please upload a file.', { media: ['Please upload a file.'] });
      const form = await readFileForm(request, { fileField: 'media', fields: FIELDS });
      const errors: Record<string, string[]> = {};
      const parsed = createOfferFields.safeParse(form.fields);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const field = String(issue.path[0] ?? 'title');
          errors[field] ??= [issue.message];
        }
      }
      let checked: CheckedFile | undefined;
      const result = checkFormFile(form);
      if ('error' in result) errors.media = [result.error];
      else checked = result;
      let promptCategory = false;
      if (parsed.success) {
        const [category] = await app.db.select({ id: categories.id, url: categories.url }).from(categories).where(eq(categories.id, parsed.data.category_id));
        if (!category) errors.category_id = ['Please select a category.'];
        // The Prompts tree ('prompts', 'prompts/midjourney', ...): a text offered there is a prompt.
        else promptCategory = category.url === PROMPTS_CATEGORY || category.url.startsWith(`${PROMPTS_CATEGORY}/`);
      }
      if (Object.keys(errors).length || !parsed.success || !checked || !form.file) {
        throw new AppError('VALIDATION', Object.values(errors)[0]?.[0] ?? 'The given data was invalid.', errors);
      }
      const input = parsed.data;
      // A listing is sold under the creator's name: the law asks for their trader details first (issue 33).
      if (input.deal_type === 'listing') await requireSellerDetails(app.db, user.id);
      let stored: Awaited<ReturnType<typeof storeOfferFile>>;
      try {
        stored = await storeOfferFile(app.storage, { data: form.file.data, checked, title: input.title });
      } catch (err) {
        request.log.info({ err }, 'offer file could not be read');
        throw new AppError('VALIDATION', 'This file could not be read.', { media: ['This file could not be read.'] });
      }
      const row = await app.db.transaction((tx) =>
        insertOffer(tx, {
          userId: user.id,
          title: input.title,
          description: input.description,
          categoryId: input.category_id,
          userPriceMinor: amountToMinor(input.price),
          dealType: input.deal_type,
          aiGenerated: input.confirm,
          keywords: input.keywords.trim(),
          // SPEC §3 doc_type: image, prompt (a text offered under Prompts) or other.
          docType: stored.docType === 'other' && promptCategory && checked.type === 'txt' ? 'prompt' : stored.docType,
          fileType: stored.fileType,
          fileName: storableFileName(form.file!.name),
          originalPath: stored.originalPath,
          fileMeta: stored.fileMeta,
          previewPath: stored.previewPath,
        }),
      );
      request.log.info({ offerId: row.id, fileType: stored.fileType }, 'offer created');
      return ok(toOffer(row), 'Your offer successfully sent');
    },
  );

  /** The creator accepts the counter-offer: the work becomes a platform-owned draft product. */
  app.post(
    '/offer/approve',
    { config: guard('verified'), schema: { tags: ['offers'], body: offerIdInput, response: { 200: okEnvelope(offer) } } },
    async (request) => {
      const user = currentUser(request);
      // A prompt's text is read from storage before the transaction (no I/O while rows are locked).
      const promptText = await offeredPromptText(app, request.body.id, user.id);
      const row = await app.db.transaction(async (tx) => {
        const moved = await moveOffer(tx, {
          offerId: request.body.id,
          ownerId: user.id,
          to: 'approved',
          actor: 'creator',
          actorId: user.id,
          require: (o) => (o.servicePriceMinor === null ? 'This offer has no price to accept yet.' : null),
        });
        const productId = await createProductFromOffer(tx, moved, { promptText });
        const [withProduct] = await tx.update(offers).set({ productId }).where(eq(offers.id, moved.id)).returning();
        return withProduct!;
      });
      return ok(toOffer(row), row.dealType === 'listing' ? 'Your work is listed in the shop.' : 'Deal is accepted');
    },
  );

  app.post(
    '/offer/decline',
    { config: guard('verified'), schema: { tags: ['offers'], body: offerIdInput, response: { 200: okEnvelope(offer) } } },
    async (request) => {
      const user = currentUser(request);
      const row = await app.db.transaction((tx) =>
        moveOffer(tx, { offerId: request.body.id, ownerId: user.id, to: 'declined_by_user', actor: 'creator', actorId: user.id }),
      );
      return ok(toOffer(row), 'Deal is declined');
    },
  );
};
