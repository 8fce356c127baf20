import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** Deterministic colours from a name, so the same product always gets the same artwork. */
function palette(name: string): string[] {
  const digest = createHash('sha256').update(name).digest();
  return [0, 3, 6, 9].map((i) => {
    const hue = Math.round((digest[i]! / 255) * 360);
    const sat = 45 + Math.round((digest[i + 1]! / 255) * 40);
    const light = 35 + Math.round((digest[i + 2]! / 255) * 35);
    return `hsl(${hue} ${sat}% ${light}%)`;
  });
}

/** Demo pictures at full size, or tiny ones for tests (drawn by features/catalog/art). */
export type SeedImageSize = 'full' | 'small';

/** A round avatar-like picture, square WebP. */
export async function renderAvatar(name: string, px: number): Promise<Buffer> {
  const [a, b] = palette(name);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}"><defs><radialGradient id="g"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${px / 2}" cy="${px * 0.4}" r="${px * 0.18}" fill="#fff" fill-opacity="0.85"/><ellipse cx="${px / 2}" cy="${px * 0.95}" rx="${px * 0.34}" ry="${px * 0.3}" fill="#fff" fill-opacity="0.85"/></svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
}

/** A simple monochrome social icon: a rounded square in the brand colour. */
export function socialIconSvg(color: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${color}"/><circle cx="16" cy="16" r="7" fill="none" stroke="#fff" stroke-width="2.5"/></svg>`,
  );
}
