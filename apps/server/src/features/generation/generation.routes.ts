import { generateImageInput, type ListItem } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { products } from '../../db/schema';
import { AppError, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { buildZip } from '../../lib/zip';
import { getCommerceSettings, InsufficientFunds, PLATFORM_REVENUE, systemAccountId, transfer, userAccountId } from '../ledger';
import { ownedAmong, shortfallMessage } from '../orders';
import { type ImageFormat, imageGeneratorFor } from './image-generator';

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
 * settings, charged at generation_price from the balance. The charge commits first; a generator
 * failure refunds it. The answer is a zip with the image, the prompt text and the licence.
 */
export const generationRoutes: FastifyPluginAsyncZod = async (app) => {
  const generator = imageGeneratorFor(app.config);

  app.post('/purchase/generate-image', { config: guard('verified'), schema: { tags: ['orders'], body: generateImageInput } }, async (request, reply) => {
    const user = currentUser(request);
    const { prompt_id, format, size } = request.body;
    const settings = await app.settings.get();
    const fields: Record<string, string> = {};
    const chosenFormat = pick(settings.formats, format);
    const imageFormat = chosenFormat ? FORMATS[chosenFormat.title.toLowerCase()] : undefined;
    if (!imageFormat) fields.format = `Please choose one of the formats: ${settings.formats.map((f) => f.title).join(', ')}.`;
    const chosenSize = pick(settings.sizes, size);
    const dims = chosenSize ? /^(\d{2,4})\s*x\s*(\d{2,4})$/i.exec(chosenSize.title) : null;
    if (!dims) fields.size = `Please choose one of the sizes: ${settings.sizes.map((s) => s.title).join(', ')}.`;
    const [prompt] = await app.db.select().from(products).where(eq(products.id, prompt_id)).limit(1);
    if (prompt?.productType !== 'prompt') fields.prompt_id = 'This product is not a prompt.';
    else if (!(await ownedAmong(app.db, user.id, [prompt.id])).has(prompt.id)) fields.prompt_id = 'Buy this prompt first to generate images from it.';
    if (Object.keys(fields).length) throw validationError(fields);

    const price = Math.round((await getCommerceSettings(app.db)).generation_price * 100);
    const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
    let chargeId: number | null = null;
    if (price > 0) {
      try {
        chargeId = await app.db.transaction(async (tx) => {
          const buyer = await userAccountId(tx, user.id);
          const revenue = await systemAccountId(tx, PLATFORM_REVENUE);
          const lines = [
            { accountId: buyer, amountMinor: -price },
            { accountId: revenue, amountMinor: price },
          ];
          return (await transfer(tx, { lines, reason: 'image generation' })).transactionId;
        });
      } catch (err) {
        if (err instanceof InsufficientFunds) throw validationError({ balance: shortfallMessage(err.shortfallMinor, currency) });
        throw err;
      }
    }

    const width = Number(dims![1]);
    const height = Number(dims![2]);
    const text = prompt!.promptText ?? prompt!.title;
    let image: Awaited<ReturnType<typeof generator.generate>>;
    try {
      image = await generator.generate({ prompt: text, width, height, format: imageFormat! });
    } catch (err) {
      request.log.error({ err: { message: (err as Error).message }, generator: generator.name }, 'image generation failed');
      if (chargeId !== null) {
        const charged = chargeId;
        await app.db.transaction(async (tx) => {
          const buyer = await userAccountId(tx, user.id);
          const revenue = await systemAccountId(tx, PLATFORM_REVENUE);
          const lines = [
            { accountId: revenue, amountMinor: -price },
            { accountId: buyer, amountMinor: price },
          ];
          await transfer(tx, { lines, reason: 'image generation refund', idempotency: `refund:${charged}` });
        });
      }
      throw new AppError('INTERNAL', 'The image could not be generated. Your balance was refunded.');
    }

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
