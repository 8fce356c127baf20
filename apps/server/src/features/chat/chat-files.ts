import sharp from 'sharp';

/** What an attachment is, told by its first bytes (never by its name or the type a client claims). */
export type AttachmentKind = { ext: string; image: boolean };

const startsWith = (data: Buffer, bytes: number[], at = 0) => data.length >= at + bytes.length && bytes.every((b, i) => data[at + i] === b);

/** Images and documents a chat accepts, by magic number; null for anything else. */
export function sniffAttachment(data: Buffer): AttachmentKind | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { ext: 'png', image: true };
  if (startsWith(data, [0xff, 0xd8, 0xff])) return { ext: 'jpg', image: true };
  if (startsWith(data, [0x47, 0x49, 0x46, 0x38])) return { ext: 'gif', image: true };
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8)) return { ext: 'webp', image: true };
  if (startsWith(data, [0x25, 0x50, 0x44, 0x46, 0x2d])) return { ext: 'pdf', image: false };
  // Office Open XML (docx, xlsx, pptx) and other zip documents.
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04])) return { ext: /word\//.test(data.subarray(0, 4096).toString('latin1')) ? 'docx' : 'zip', image: false };
  // Legacy Office (doc, xls): the OLE compound file header.
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return { ext: 'doc', image: false };
  return null;
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
