import sharp from 'sharp';
import { type BinaryType, sniffBinary } from '../../lib/file-type';

/** What an attachment is, told by its first bytes (never by its name or the type a client claims). */
export type AttachmentKind = { ext: string; image: boolean };

const EXTENSION: Record<BinaryType, string> = { jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp', pdf: 'pdf', docx: 'docx', zip: 'zip', doc: 'doc' };
const IMAGES = new Set<BinaryType>(['jpeg', 'png', 'gif', 'webp']);

/** Images and documents a chat accepts, by the shared magic numbers (lib/file-type.ts); null for anything else. */
export function sniffAttachment(data: Buffer): AttachmentKind | null {
  const type = sniffBinary(data);
  return type ? { ext: EXTENSION[type], image: IMAGES.has(type) } : null;
}

/** The width of a locked image's preview: enough to judge it, too little to use it. */
export const LOCKED_PREVIEW_WIDTH = 360;

/**
 * A locked image's public stand-in: small, blurred and watermarked, as WebP. The original stays in
 * private storage until the buyer pays.
 */
export async function lockedPreview(image: Buffer): Promise<Buffer> {
  const small = await sharp(image)
    .rotate()
    .resize({ width: LOCKED_PREVIEW_WIDTH, height: LOCKED_PREVIEW_WIDTH, fit: 'inside' })
    .blur(8)
    .toBuffer({ resolveWithObject: true });
  const { width, height } = small.info;
  const mark = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-size="${Math.max(14, Math.round(width / 9))}" ` +
      `fill="white" fill-opacity="0.75" stroke="black" stroke-opacity="0.35" transform="rotate(-25 ${width / 2} ${height / 2})">ATELIER · LOCKED</text></svg>`,
  );
  return sharp(small.data)
    .composite([{ input: mark }])
    .webp({ quality: 60 })
    .toBuffer();
}

/** A file name as the sender's browser gave it, made safe to store and show. */
export function cleanAttachmentName(name: string | undefined, ext: string): string {
  const stem = (name ?? '')
    .replace(/\.[^.]*$/, '')
    .normalize('NFKC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are dropped from names
    .replace(/[\u0000-\u001f\u007f/\\"<>:|?*]/g, '')
    .trim()
    .slice(0, 100);
  return `${stem || 'attachment'}.${ext}`;
}
