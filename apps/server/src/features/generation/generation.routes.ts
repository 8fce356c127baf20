import { generateImageInput, isImagePromptCategory, type ListItem } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { categories, products } from '../../db/schema';
import { AppError, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { buildZip } from '../../lib/zip';
import { getCommerceSettings, InsufficientFunds } from '../ledger';
import { ownedAmong, shortfallMessage } from '../orders';
import { findGeneration, registerGenerationJob, startGeneration } from './generation';
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

/**
 * POST /purchase/generate-image: an image from a prompt the user owns, in a format and size from the
 * settings, charged at generation_price from the balance. The charge commits with a generation row
 * and its job (generation.ts); the request then runs that job itself and answers a zip with the image,
 * the prompt text and the licence, or a 500 saying the balance was refunded.
 */
const WAIT_FOR_OTHER_SERVER_MS = 30_000;
export const generationRoutes: FastifyPluginAsyncZod = async (app) => {
  const generator = imageGeneratorFor(app.config);
  const mode = imageGenerationMode(app.config);
  registerGenerationJob(app, generator);

  /** Runs the generation's job here until it is settled; if another server holds it, waits for it a while. */
  async function waitForGeneration({ generationId, jobId }: { generationId: number; jobId: number }) {
    const waitUntil = Date.now() + WAIT_FOR_OTHER_SERVER_MS;
    for (;;) {
      const ran = await app.jobs.runJob(jobId);
      const g = await findGeneration(app.db, generationId);
      if (g?.status !== 'pending' || (!ran && Date.now() > waitUntil)) return g;
      if (!ran) await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

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
    const g = await waitForGeneration(started);
    if (g?.status !== 'done') {
      if (g?.status === 'pending')
        throw new AppError('INTERNAL', 'The image is taking longer than expected. If it cannot be made, your balance will be refunded.');
      throw new AppError('INTERNAL', 'The image could not be generated. Your balance was refunded.');
    }
    const stored = await app.storage.openPrivate(g.resultKey!);
    if (!stored) throw new AppError('INTERNAL', 'The image could not be read. Please try again later.');
    const chunks: Buffer[] = [];
    for await (const chunk of stored.stream) chunks.push(chunk as Buffer);
    const image = { data: Buffer.concat(chunks), format: g.format as ImageFormat, generator: g.generator ?? generator.name };

    const base = `${prompt!.slug}-${width}x${height}`;
    const ext = image.format === 'jpeg' ? 'jpg' : image.format;
    const zip = buildZip([
      { name: `${base}.${ext}`, data: image.data },
      { name: 'prompt.txt', data: Buffer.from(`${text}\n`, 'utf8') },
      { name: 'LICENSE.txt', data: Buffer.from(`${LICENCE}\nGenerated by: ${image.generator}.\n`, 'utf8') },
    ]);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${base}.zip"`)
      .header('cache-control', 'private, no-store')
      .send(zip);
  });
};
