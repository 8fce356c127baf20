import {
  type Generation,
  generateImageInput,
  generationParams,
  generation as generationSchema,
  isImagePromptCategory,
  type ListItem,
  okEnvelope,
} from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { categories, products } from '../../db/schema';
import { AppError, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { buildZip } from '../../lib/zip';
import { getCommerceSettings, InsufficientFunds } from '../ledger';
import { ownedAmong, shortfallMessage } from '../orders';
import { findGeneration, type GenerationRow, type GenerationWaiters, listGenerations, registerGenerationJob, startGeneration, stopWaiting } from './generation';
import { type ImageFormat, imageGenerationMode, imageGeneratorFor } from './image-generator';

const FORMATS: Record<string, ImageFormat> = { png: 'png', jpeg: 'jpeg', jpg: 'jpeg', webp: 'webp' };

function pick(list: ListItem[], wanted: string | number): ListItem | undefined {
  return list.find((item) =>
    typeof wanted === 'number' ? item.id === wanted : item.title.toLowerCase() === wanted.toLowerCase() || String(item.id) === wanted,
  );
}

const LICENCE = `Atelier licence for generated images

You own the prompt this image was generated from, and you may use the generated image for personal
and commercial projects. You may not resell the prompt text itself.
`;

const STATUS: Record<GenerationRow['status'], Generation['status']> = { pending: 'processing', done: 'ready', failed: 'failed', refunded: 'refunded' };
const downloadUrl = (id: number) => `/api/user/generations/${id}/download`;

/**
 * POST /purchase/generate-image: an image from a prompt the user owns, in a format and size from the
 * settings, charged at generation_price from the balance. The charge commits with a generation row
 * and its job (generation.ts); the request then runs that job itself and answers a zip with the image,
 * the prompt text and the licence, or a 500 saying the balance was refunded. Whatever happens to the
 * request, the image stays in GET /user/generations, and one finished after the request ended rings
 * the buyer's bell (issue 29).
 */
const WAIT_FOR_OTHER_SERVER_MS = 30_000;
export const generationRoutes: FastifyPluginAsyncZod = async (app) => {
  const generator = imageGeneratorFor(app.config);
  const mode = imageGenerationMode(app.config);
  const waiters: GenerationWaiters = new Set();
  registerGenerationJob(app, generator, waiters);

  /**
   * Runs the generation's job here until it is settled; if another server holds it, waits for it a
   * while. Its client going away, or the wait ending first, hands the news over to the bell.
   */
  async function waitForGeneration({ generationId, jobId }: { generationId: number; jobId: number }, request: FastifyRequest, reply: FastifyReply) {
    waiters.add(generationId);
    // The answer never reached its client (it went away, or a proxy timed out): the bell tells, once.
    const clientGone = () => {
      if (reply.raw.writableEnded) return;
      stopWaiting(app.db, waiters, generationId, { clientGone: true }).catch((err) =>
        request.log.error({ code: (err as { code?: unknown }).code, generationId }, 'could not hand a generation over to the bell'),
      );
    };
    reply.raw.once('close', clientGone);
    const waitUntil = Date.now() + WAIT_FOR_OTHER_SERVER_MS;
    try {
      for (;;) {
        const ran = await app.jobs.runJob(jobId);
        const g = await findGeneration(app.db, generationId);
        if (g?.status !== 'pending') {
          // Settled while waited for: this answer delivers it.
          waiters.delete(generationId);
          return g;
        }
        if (!ran && Date.now() > waitUntil) return await stopWaiting(app.db, waiters, generationId, { clientGone: false });
        if (!ran) await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } catch (err) {
      // The wait itself failed (the database went away): hand the news over to the bell as far as possible.
      await stopWaiting(app.db, waiters, generationId, { clientGone: false }).catch(() => waiters.delete(generationId));
      throw err;
    }
  }

  /** The zip a generation is delivered as: the image, the prompt text and the licence. Null when the image is missing. */
  async function generationZip(g: GenerationRow, slug: string | null) {
    const stored = await app.storage.openPrivate(g.resultKey!);
    if (!stored) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of stored.stream) chunks.push(chunk as Buffer);
    const format = g.format as ImageFormat;
    const base = `${slug ?? 'generated-image'}-${g.width}x${g.height}`;
    const ext = format === 'jpeg' ? 'jpg' : format;
    const zip = buildZip([
      { name: `${base}.${ext}`, data: Buffer.concat(chunks) },
      { name: 'prompt.txt', data: Buffer.from(`${g.promptText}\n`, 'utf8') },
      { name: 'LICENSE.txt', data: Buffer.from(`${LICENCE}\nGenerated by: ${g.generator ?? generator.name}.\n`, 'utf8') },
    ]);
    return { zip, fileName: `${base}.zip` };
  }

  function sendZip(reply: FastifyReply, file: { zip: Buffer; fileName: string }) {
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(file.zip);
  }

  /** The buyer's generated images, newest first: each paid one is here whatever happened to its request. */
  app.get(
    '/user/generations',
    { config: guard('user'), schema: { tags: ['orders'], response: { 200: okEnvelope(z.array(generationSchema)) } } },
    async (request) => {
      const rows = await listGenerations(app.db, currentUser(request).id);
      return ok(
        rows.map(({ g, promptTitle }) => ({
          id: g.id,
          prompt_id: g.promptId,
          prompt_title: promptTitle,
          status: STATUS[g.status],
          price: g.priceMinor / 100,
          created_at: Math.floor(g.createdAt.getTime() / 1000),
          download_url: g.status === 'done' ? downloadUrl(g.id) : null,
        })),
      );
    },
  );

  /** A generated image again, as the zip it was delivered as: only its buyer gets it; anyone else a 404. */
  app.get(
    '/user/generations/:id/download',
    { config: guard('user'), compress: false, schema: { tags: ['orders'], params: generationParams } },
    async (request, reply) => {
      const g = await findGeneration(app.db, request.params.id);
      if (!g || g.userId !== currentUser(request).id) throw new AppError('NOT_FOUND', 'This generated image was not found.');
      if (g.status === 'pending') throw new AppError('CONFLICT', 'This image is still being generated. You will be notified when it is ready.');
      if (g.status !== 'done') throw new AppError('GONE', 'This image could not be generated, so there is nothing to download.');
      const [prompt] = g.promptId ? await app.db.select({ slug: products.slug }).from(products).where(eq(products.id, g.promptId)) : [];
      const file = await generationZip(g, prompt?.slug ?? null);
      if (!file) {
        request.log.error({ generationId: g.id }, 'a generated image is missing from storage');
        throw new AppError('NOT_FOUND', 'This generated image was not found.');
      }
      return sendZip(reply, file);
    },
  );

  app.post('/purchase/generate-image', { config: guard('verified'), schema: { tags: ['orders'], body: generateImageInput } }, async (request, reply) => {
    const user = currentUser(request);
    // Issue 18 bug 4: without an image model, the built-in renderer is offered only in the demo.
    if (mode === 'off') throw new AppError('CONFLICT', 'Image generation is not available on this site: no image model is configured. Nothing was charged.');
    const { prompt_id, format, size } = request.body;
    const settings = await app.settings.get();
    const fields: Record<string, string> = {};
    const chosenFormat = pick(settings.formats, format);
    const imageFormat = chosenFormat ? FORMATS[chosenFormat.title.toLowerCase()] : undefined;
    if (!imageFormat) fields.format = `Please choose one of the formats: ${settings.formats.map((f) => f.title).join(', ')}.`;
    const chosenSize = pick(settings.sizes, size);
    const dims = chosenSize ? /^(\d{2,4})\s*x\s*(\d{2,4})$/i.exec(chosenSize.title) : null;
    if (!dims) fields.size = `Please choose one of the sizes: ${settings.sizes.map((s) => s.title).join(', ')}.`;
    const [found] = await app.db
      .select({ product: products, categoryUrl: categories.url, categoryTitle: categories.title })
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .where(eq(products.id, prompt_id))
      .limit(1);
    const prompt = found?.product;
    if (prompt?.productType !== 'prompt') fields.prompt_id = 'This product is not a prompt.';
    else if (!isImagePromptCategory(found!.categoryUrl))
      // Only a prompt written for an image model makes an image worth paying for (issue 18 bug 4).
      fields.prompt_id = `This prompt is for a text model${found!.categoryTitle ? ` (${found!.categoryTitle})` : ''}: images can be generated only from image prompts, such as Midjourney or Stable Diffusion prompts. Nothing was charged.`;
    else if (!(await ownedAmong(app.db, user.id, [prompt.id])).has(prompt.id)) fields.prompt_id = 'Buy this prompt first to generate images from it.';
    if (Object.keys(fields).length) throw validationError(fields);

    const price = Math.round((await getCommerceSettings(app.db)).generation_price * 100);
    const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
    const width = Number(dims![1]);
    const height = Number(dims![2]);
    const text = prompt!.promptText ?? prompt!.title;
    let started: Awaited<ReturnType<typeof startGeneration>>;
    try {
      started = await startGeneration(app.db, {
        userId: user.id,
        promptId: prompt!.id,
        promptText: text,
        format: imageFormat!,
        width,
        height,
        priceMinor: price,
      });
    } catch (err) {
      if (err instanceof InsufficientFunds) throw validationError({ balance: shortfallMessage(err.shortfallMinor, currency) });
      throw err;
    }

    // The charge and the job are committed: this request runs its own job now, every attempt in a row,
    // so the client gets the image (or the refund) in this answer as before. Should this server die,
    // another one takes the job up after its timeout.
    const g = await waitForGeneration(started, request, reply);
    if (g?.status !== 'done') {
      if (g?.status === 'pending')
        throw new AppError(
          'INTERNAL',
          'The image is taking longer than expected. You will be notified when it is ready, and it will be in your order history; if it cannot be made, your balance will be refunded.',
        );
      throw new AppError('INTERNAL', 'The image could not be generated. Your balance was refunded.');
    }
    const file = await generationZip(g, prompt!.slug);
    if (!file) throw new AppError('INTERNAL', 'The image could not be read. Please try again later.');
    return sendZip(reply, file);
  });
};
