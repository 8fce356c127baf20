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

/** Generative artwork as SVG (no text, so no fonts are needed), rendered by sharp. */
function artworkSvg(name: string, kind: 'image' | 'doc' | 'prompt' | 'pack', width: number, height: number): string {
  const [a, b, c, d] = palette(name);
  const digest = createHash('sha1').update(name).digest();
  const shapes: string[] = [];
  for (let i = 0; i < 6; i++) {
    const x = Math.round((digest[i]! / 255) * width);
    const y = Math.round((digest[i + 6]! / 255) * height);
    const r = Math.round(((digest[i + 12]! / 255) * 0.25 + 0.08) * width);
    shapes.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="${i % 2 ? c : d}" fill-opacity="0.55"/>`);
  }
  const w = width;
  const h = height;
  let overlay = '';
  if (kind === 'doc') {
    const lines = Array.from(
      { length: 9 },
      (_, i) =>
        `<rect x="${w * 0.3}" y="${h * 0.22 + i * h * 0.065}" width="${w * (i % 3 === 2 ? 0.25 : 0.4)}" height="${h * 0.022}" rx="${h * 0.01}" fill="#1d1d2b" fill-opacity="0.55"/>`,
    ).join('');
    overlay = `<rect x="${w * 0.25}" y="${h * 0.12}" width="${w * 0.5}" height="${h * 0.76}" rx="${w * 0.02}" fill="#fffdf6" fill-opacity="0.93"/>${lines}`;
  } else if (kind === 'prompt') {
    overlay = `<rect x="${w * 0.15}" y="${h * 0.62}" width="${w * 0.7}" height="${h * 0.14}" rx="${h * 0.07}" fill="#0d0d18" fill-opacity="0.72"/><rect x="${w * 0.2}" y="${h * 0.675}" width="${w * 0.42}" height="${h * 0.03}" rx="${h * 0.015}" fill="#ffffff" fill-opacity="0.85"/><circle cx="${w * 0.78}" cy="${h * 0.69}" r="${h * 0.035}" fill="#ffd23f"/>`;
  } else if (kind === 'pack') {
    overlay = [0, 1, 2]
      .map(
        (i) =>
          `<rect x="${w * (0.22 + i * 0.06)}" y="${h * (0.18 + i * 0.07)}" width="${w * 0.45}" height="${h * 0.5}" rx="${w * 0.02}" fill="#ffffff" fill-opacity="${0.35 + i * 0.2}"/>`,
      )
      .join('');
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}${overlay}</svg>`;
}

export type SeedImageSize = 'full' | 'small';

const sizes = {
  full: { preview: [960, 720], original: [1920, 1440] },
  small: { preview: [160, 120], original: [320, 240] },
} as const;

/** The public WebP preview and, for images, the private PNG original. */
export async function renderArtwork(name: string, kind: 'image' | 'doc' | 'prompt' | 'pack', size: SeedImageSize) {
  const [pw, ph] = sizes[size].preview;
  const preview = await sharp(Buffer.from(artworkSvg(name, kind, pw, ph)))
    .webp({ quality: 78 })
    .toBuffer();
  if (kind !== 'image') return { preview, original: null };
  const [ow, oh] = sizes[size].original;
  const original = await sharp(Buffer.from(artworkSvg(name, kind, ow, oh)))
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { preview, original };
}

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
