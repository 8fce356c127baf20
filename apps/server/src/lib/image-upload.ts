import type { FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { validationError } from './app-error';

/** Raster formats accepted for a user's pictures (avatar, storefront banner), judged by the bytes, never by the file name. */
export const PICTURE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

/**
 * The one image of a multipart request, checked as an avatar is: the named field, at most `maxBytes`,
 * and bytes sharp reads as a raster picture. Each refusal is a 422 on `field` (`tooLarge` says the limit).
 * The caller re-encodes the pixels, so metadata (EXIF, GPS) and anything hidden in the file are dropped.
 */
export async function readUploadedPicture(request: FastifyRequest, opts: { field: string; maxBytes: number; tooLarge: string }): Promise<Buffer> {
  const notAnImage = () => validationError({ [opts.field]: 'Please select an image file' });
  if (!request.isMultipart()) throw notAnImage();
  // The library reads one byte past the limit, and the size of what arrived decides (issue 18 bug 10):
  // its `truncated` flag alone let a file over the limit through now and then.
  const file = await request.file({ limits: { fileSize: opts.maxBytes + 1, files: 1 } });
  if (file?.fieldname !== opts.field) throw notAnImage();
  const tooLarge = () => validationError({ [opts.field]: opts.tooLarge });
  let data: Buffer;
  try {
    data = await file.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw err;
  }
  if (data.length > opts.maxBytes) throw tooLarge();
  let format: string | undefined;
  try {
    format = (await sharp(data).metadata()).format;
  } catch {
    format = undefined;
  }
  if (!format || !PICTURE_FORMATS.has(format)) throw notAnImage();
  return data;
}
