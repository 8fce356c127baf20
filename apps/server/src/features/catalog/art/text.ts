import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/**
 * Text for the demo pictures is set by sharp (Pango) with the font files shipped in
 * `apps/server/assets/fonts`, handed over by path: no system font and no font configuration is needed.
 */
export const FONTS = {
  serif: { family: 'DejaVu Serif', file: 'DejaVuSerif.ttf' },
  serifBold: { family: 'DejaVu Serif', file: 'DejaVuSerif-Bold.ttf' },
  mono: { family: 'DejaVu Sans Mono', file: 'DejaVuSansMono.ttf' },
} as const;
export type FontName = keyof typeof FONTS;

let fontDir: string | null = null;
/** The folder holding the fonts, found from this module (source) or from the bundle in dist/. */
export function fontsDir(): string {
  if (fontDir) return fontDir;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'assets', 'fonts');
    if (existsSync(path.join(candidate, FONTS.serif.file))) {
      fontDir = candidate;
      return candidate;
    }
    dir = path.dirname(dir);
  }
  throw new Error('The demo picture fonts (apps/server/assets/fonts) are missing');
}

let registered: Promise<void> | null = null;
/** Pango keeps every font file it was given, so bold and regular are both known after one call each. */
function registerFonts(): Promise<void> {
  registered ??= (async () => {
    for (const f of Object.values(FONTS)) {
      await sharp({ text: { text: '.', font: `${f.family} 8`, fontfile: path.join(fontsDir(), f.file) } })
        .raw()
        .toBuffer();
    }
  })();
  return registered;
}

/** Escapes text for Pango markup. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export type TextImage = { data: Buffer; width: number; height: number };

/**
 * Renders Pango markup, wrapped at `width` px, as a transparent RGBA PNG. `size` is the base font size
 * in px; spans may set their own.
 */
export async function renderText(
  markup: string,
  opts: { width: number; size: number; font?: FontName; align?: 'left' | 'centre' | 'right'; spacing?: number; height?: number },
): Promise<TextImage> {
  await registerFonts();
  const f = FONTS[opts.font ?? 'serif'];
  const { data, info } = await sharp({
    text: {
      text: markup,
      font: `${f.family} ${Math.max(1, Math.round(opts.size))}px`,
      fontfile: path.join(fontsDir(), f.file),
      width: Math.max(1, Math.round(opts.width)),
      height: opts.height ? Math.max(1, Math.round(opts.height)) : undefined,
      rgba: true,
      wrap: 'word',
      align: opts.align ?? 'left',
      spacing: opts.spacing ? Math.round(opts.spacing) : undefined,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
