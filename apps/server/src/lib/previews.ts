import sharp from 'sharp';
import { publicUrl, type Storage } from './storage';

/** Smaller copies written beside every product preview, so a phone downloads the size it shows. */
export const PREVIEW_VARIANT_WIDTHS = [480, 720] as const;
/** The preview itself is at most this wide. */
export const PREVIEW_MAX_WIDTH = 960;

/** `products/x/preview.webp` → `products/x/preview-480.webp`. */
export function previewVariantKey(key: string, width: number): string {
  return key.replace(/\.webp$/, `-${width}.webp`);
}

/**
 * The files of a preview under `key`: the WebP preview (at most PREVIEW_MAX_WIDTH wide) and its smaller
 * copies, as storage keys with their bytes.
 */
export async function previewFiles(key: string, image: Buffer): Promise<Array<{ key: string; data: Buffer }>> {
  if (!key.endsWith('.webp')) throw new Error(`A preview key must end in .webp: ${key}`);
  const resize = (width: number) => sharp(image).resize({ width, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer();
  const [full, ...copies] = await Promise.all([resize(PREVIEW_MAX_WIDTH), ...PREVIEW_VARIANT_WIDTHS.map(resize)]);
  return [{ key, data: full! }, ...PREVIEW_VARIANT_WIDTHS.map((w, i) => ({ key: previewVariantKey(key, w), data: copies[i]! }))];
}

/**
 * Writes a WebP preview under `key` (at most PREVIEW_MAX_WIDTH wide) and its smaller copies beside it.
 * Every product preview goes through here, which is what lets previewSrcSet name the copies.
 */
export async function savePreview(storage: Storage, key: string, image: Buffer): Promise<void> {
  for (const file of await previewFiles(key, image)) await storage.putPublic(file.key, file.data);
}

/** The `srcset` of a preview saved by savePreview: each copy with its width. */
export function previewSrcSet(key: string | null): string | null {
  if (!key?.endsWith('.webp')) return null;
  const copies = PREVIEW_VARIANT_WIDTHS.map((w) => `${publicUrl(previewVariantKey(key, w))} ${w}w`);
  return [...copies, `${publicUrl(key)} ${PREVIEW_MAX_WIDTH}w`].join(', ');
}
