import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import { demoAccounts, demoCreators } from '../../../db/seed-content';
import { renderAvatar, type SeedImageSize } from '../../../db/seed-images';
import { previewFiles } from '../../../lib/previews';
import { type DemoDocument, demoDocuments, documentText } from './documents';
import { hasScene, rngFor, sceneSvg } from './scenes';
import { esc, renderText } from './text';
import { type DemoWork, demoKeys, demoPackWorks, demoWorks, promptTextFor } from './works';

/**
 * The demo pictures: every demo work's preview (with a watermark) and original, drawn from its title,
 * kind and content with SVG and sharp; nothing is fetched. Images are painted scenes, prompts a sample
 * result beside the prompt's card (its first words legible, the rest blurred), texts the first page of
 * the document, packs a collage of their items.
 */

export const ART_SIZES = {
  full: { preview: [960, 720], original: [1920, 1440] },
  small: { preview: [160, 120], original: [320, 240] },
} as const;

export type DemoFile = { visibility: 'public' | 'private'; key: string; data: Buffer };

const png = (s: Sharp) => s.png({ compressionLevel: 6 }).toBuffer();

/** Film grain: grey noise at low opacity, laid over with `overlay`. */
function grain(width: number, height: number, seed: string, alpha: number): OverlayOptions {
  const r = rngFor(`grain:${seed}`);
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    const v = 128 + Math.round((r() - 0.5) * 200);
    data[i] = v;
    data[i + 1] = v;
    data[i + 2] = v;
    data[i + 3] = alpha;
  }
  return { input: data, raw: { width, height, channels: 4 }, blend: 'overlay' };
}

/** Darker corners, for depth. */
function vignette(width: number, height: number, strength: number): OverlayOptions {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><radialGradient id="v" cx="0.5" cy="0.5" r="0.75"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="${strength}"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#v)"/></svg>`;
  return { input: Buffer.from(svg) };
}

/** A painted scene with depth and grain, as PNG. */
async function paintScene(slug: string, width: number, height: number): Promise<Buffer> {
  const base = await sharp(Buffer.from(sceneSvg(slug, width, height)))
    .png()
    .toBuffer();
  return png(sharp(base).composite([vignette(width, height, 0.38), grain(width, height, slug, 26)]));
}

/** A subtle mark on every preview: a faint diagonal 'Atelier preview' pattern and a small label. */
async function watermark(image: Buffer, width: number, height: number): Promise<Buffer> {
  const s = width / 960;
  const label = await renderText(`<span foreground="#ffffff" alpha="62%">atelier · preview</span>`, { width: 400 * s, size: 19 * s, font: 'serifBold' });
  const shadow = await renderText(`<span foreground="#000000" alpha="45%">atelier · preview</span>`, { width: 400 * s, size: 19 * s, font: 'serifBold' });
  const tileText = await renderText(`<span foreground="#ffffff" alpha="9%">ATELIER   PREVIEW</span>`, { width: 600 * s, size: 26 * s, font: 'serifBold' });
  const pad = Math.round(36 * s);
  const tile = await sharp({
    create: { width: tileText.width + pad * 4, height: tileText.height + pad * 5, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([{ input: tileText.data, left: pad * 2, top: pad * 2 }])
    .png()
    .toBuffer();
  const rotated = await sharp(tile)
    .rotate(-28, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
  const meta = await sharp(rotated).metadata();
  const layers: OverlayOptions[] = [];
  if ((meta.width ?? 0) < width && (meta.height ?? 0) < height) layers.push({ input: rotated, tile: true, left: 0, top: 0 });
  const x = Math.max(0, width - label.width - Math.round(22 * s));
  const y = Math.max(0, height - label.height - Math.round(16 * s));
  const off = Math.max(1, Math.round(1.5 * s));
  layers.push({ input: shadow.data, left: Math.min(x + off, width - shadow.width), top: Math.min(y + off, height - shadow.height) });
  layers.push({ input: label.data, left: x, top: y });
  return png(sharp(image).composite(layers));
}

/** `hsl()` as #rrggbb (Pango markup knows no hsl). */
function hsl(h: number, sPct: number, lPct: number): string {
  const sat = sPct / 100;
  const l = lPct / 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = sat * Math.min(l, 1 - l);
  const c = (n: number) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return `#${[c(0), c(8), c(4)].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** A colour of its own for each work: demo works of one kind are spread around the colour wheel. */
function hue(slug: string): number {
  const work = [...demoWorks, ...demoPackWorks].find((w) => w.slug === slug);
  if (!work) return Math.floor(rngFor(`hue:${slug}`)() * 360);
  const same = [...demoWorks, ...demoPackWorks].filter((w) => w.kind === work.kind);
  return Math.round((same.indexOf(work) * 360 * 5) / same.length + (work.kind === 'prompt' ? 17 : 0)) % 360;
}

/** A document's first page: markup for Pango, sized for a page `pageW` px wide. */
function pageMarkup(title: string, description: string | null, doc: DemoDocument, pageW: number, accent: string): string {
  const px = (n: number) => Math.max(1, Math.round(n * (pageW / 560) * 1024));
  const parts = [
    `<span foreground="${accent}" size="${px(13)}" letter_spacing="${px(2)}">${esc(doc.kicker.toUpperCase())}</span>`,
    `<span size="${px(6)}"> </span>`,
    `<span foreground="#1c1917" size="${px(34)}" weight="bold">${esc(title)}</span>`,
  ];
  if (description) parts.push(`<span size="${px(8)}"> </span>`, `<span foreground="#57534e" size="${px(16)}" style="italic">${esc(description)}</span>`);
  for (const section of doc.sections) {
    parts.push(`<span size="${px(10)}"> </span>`, `<span foreground="#1c1917" size="${px(20)}" weight="bold">${esc(section.heading)}</span>`);
    for (const p of section.paragraphs) parts.push(`<span foreground="#292524" size="${px(15.5)}">${esc(p)}</span>`);
  }
  return parts.join('\n');
}

/** A sheet of paper with the document's first page set on it, `w` wide and `h` tall. */
async function paperPage(title: string, description: string | null, doc: DemoDocument, w: number, h: number, accent: string, header = 0): Promise<Buffer> {
  const margin = Math.round(w * 0.1);
  const text = await renderText(pageMarkup(title, description, doc, w, accent), { width: w - margin * 2, size: (15.5 * w) / 560, spacing: (6 * w) / 560 });
  const band = Math.max(1, Math.round(h * (header || 0.018)));
  const textTop = Math.round(margin * 0.8) + band;
  // The text stops above the rule at the foot of the page.
  const textH = Math.min(text.height, Math.round(h * 0.93) - textTop);
  const cropped = await sharp(text.data)
    .extract({ left: 0, top: 0, width: text.width, height: Math.max(1, textH) })
    .png()
    .toBuffer();
  const rule = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${band}" fill="${accent}"/><rect x="${margin}" y="${Math.round(h * 0.95)}" width="${w - margin * 2}" height="${Math.max(1, Math.round(h * 0.003))}" fill="#d6d3d1"/></svg>`;
  return png(
    sharp({ create: { width: w, height: h, channels: 4, background: '#fffdf8' } }).composite([
      { input: Buffer.from(rule) },
      { input: cropped, left: margin, top: textTop },
    ]),
  );
}

/** A text's preview: its first page lying on a coloured desk, a second page behind it. */
async function documentPreview(work: DemoWork, width: number, height: number): Promise<{ preview: Buffer; page: Buffer }> {
  const doc = demoDocuments[work.slug] ?? { kicker: 'Document', sections: [{ heading: work.title, paragraphs: [work.description] }] };
  const h0 = hue(work.slug);
  const accent = hsl(h0, 60, 38);
  const pageW = Math.round(width * 0.58);
  const r = rngFor(`desk:${work.slug}`);
  // Pages lie in different places, and every other one has a coloured header, so no two look alike.
  const index = Math.max(0, demoWorks.filter((w) => w.kind === work.kind).indexOf(work));
  const left = Math.round(width * ([0.08, 0.21, 0.34][index % 3]! + r() * 0.03));
  const top = Math.round(height * 0.07);
  const page = await paperPage(work.title, work.description, doc, pageW, height - top, accent, index % 2 ? 0.11 : 0);
  const desk = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 960 720"><defs><linearGradient id="d" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${h0} 35% 72%)"/><stop offset="1" stop-color="hsl(${(h0 + 30) % 360} 40% 48%)"/></linearGradient><filter id="s" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="14"/></filter></defs>
<rect width="960" height="720" fill="url(#d)"/><circle cx="${Math.round(r() * 960)}" cy="${Math.round(r() * 720)}" r="${200 + Math.round(r() * 160)}" fill="hsl(${(h0 + 180) % 360} 50% 60%)" opacity="0.25"/>
<g transform="rotate(${(3 + r() * 3).toFixed(1)} 480 360)"><rect x="${(left / width) * 960 + 40}" y="${(top / height) * 720 + 20}" width="${0.58 * 960}" height="760" fill="#000" opacity="0.35" filter="url(#s)"/><rect x="${(left / width) * 960 + 30}" y="${(top / height) * 720 + 10}" width="${0.58 * 960}" height="760" fill="#f5f1e8"/></g>
<rect x="${(left / width) * 960 + 10}" y="${(top / height) * 720 + 14}" width="${0.58 * 960}" height="760" fill="#000" opacity="0.45" filter="url(#s)"/></svg>`;
  const base = await sharp(Buffer.from(desk)).png().toBuffer();
  const preview = await png(sharp(base).composite([{ input: page, left, top }, grain(width, height, work.slug, 14)]));
  return { preview, page };
}

const TEXT_MODEL_CATEGORIES = ['prompts/chatgpt'];

function isDocument(slug: string): boolean {
  return demoWorks.some((w) => w.slug === slug && w.kind === 'doc');
}

/** Whether a work's collage picture is a page of text (kept from its left edge when cropped). */
function textSampled(slug: string): boolean {
  const w = demoWorks.find((x) => x.slug === slug);
  return !!w && w.kind === 'prompt' && w.category !== null && TEXT_MODEL_CATEGORIES.includes(w.category);
}

/** A prompt's preview: a sample result on the left, the prompt's card on the right. */
async function promptPreview(work: DemoWork, width: number, height: number): Promise<{ preview: Buffer; sample: Buffer }> {
  const s = width / 960;
  const h0 = hue(work.slug);
  const sampleW = Math.round(width * 0.54);
  const sampleH = Math.round(height * 0.86);
  // Every other prompt has its card on the left, so prompts of one kind do not look alike.
  const index = Math.max(0, demoWorks.filter((w) => w.kind === work.kind).indexOf(work));
  const flip = index % 2 === 1;
  const sampleX = flip ? 0.42 : 0.04;
  const cardXf = flip ? 0.04 : 0.62;
  const sx = Math.round(width * sampleX);
  const sy = Math.round(height * 0.07);
  const textSample = work.category !== null && TEXT_MODEL_CATEGORIES.includes(work.category);
  let sample: Buffer;
  if (textSample || !hasScene(work.slug)) {
    const doc = demoDocuments[work.slug] ?? { kicker: 'Sample answer', sections: [{ heading: work.title, paragraphs: [work.description] }] };
    sample = await paperPage(work.title, null, doc, sampleW, sampleH, hsl(h0, 60, 38), 0.14);
  } else {
    sample = await paintScene(work.slug, sampleW, sampleH);
  }
  const radius = Math.round(18 * s);
  const mask = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${sampleW}" height="${sampleH}"><rect width="${sampleW}" height="${sampleH}" rx="${radius}" fill="#fff"/></svg>`,
  );
  const unrounded = sample;
  sample = await png(sharp(sample).composite([{ input: mask, blend: 'dest-in' }]));

  const cardX = Math.round(width * cardXf);
  const cardW = Math.round(width * 0.34);
  const cardY = Math.round(height * 0.1);
  const cardH = Math.round(height * 0.8);
  const pad = Math.round(26 * s);
  const bg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 960 720"><defs><linearGradient id="b" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${h0} 45% 14%)"/><stop offset="1" stop-color="hsl(${(h0 + 40) % 360} 50% 24%)"/></linearGradient><filter id="s" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="12"/></filter></defs>
<rect width="960" height="720" fill="url(#b)"/><rect x="${sampleX * 960 + 8}" y="${50 + 12}" width="${0.54 * 960}" height="${0.86 * 720}" rx="18" fill="#000" opacity="0.5" filter="url(#s)"/>
<rect x="${cardXf * 960 + 6}" y="${0.1 * 720 + 10}" width="${0.34 * 960}" height="${0.8 * 720}" rx="20" fill="#000" opacity="0.45" filter="url(#s)"/><rect x="${cardXf * 960}" y="${0.1 * 720}" width="${0.34 * 960}" height="${0.8 * 720}" rx="20" fill="#fbfaf7"/>
<rect x="${cardXf * 960 + 26}" y="${0.1 * 720 + 26}" width="112" height="32" rx="16" fill="hsl(${h0} 55% 40%)"/></svg>`;

  const words = promptTextFor(work).split(' ');
  const shown = words.slice(0, 6).join(' ');
  const rest = words.slice(6).join(' ');
  const body = (visible: 'head' | 'rest') =>
    `<span foreground="#111827"${visible === 'rest' ? ' alpha="1%"' : ''}>${esc(shown)}</span> <span foreground="#374151"${visible === 'head' ? ' alpha="1%"' : ''}>${esc(rest)} ${esc(rest)}</span>`;
  const textW = cardW - pad * 2;
  const textH = cardH - pad * 2 - Math.round(52 * s);
  const opts = { width: textW, size: 25 * s, font: 'mono' as const, spacing: 9 * s };
  const head = await renderText(body('head'), opts);
  const tail = await renderText(body('rest'), opts);
  const clip = async (img: { data: Buffer; width: number; height: number }) =>
    sharp(img.data)
      .extract({ left: 0, top: 0, width: img.width, height: Math.max(1, Math.min(img.height, textH)) })
      .png()
      .toBuffer();
  const blurred = await sharp(await clip(tail))
    .blur(Math.max(0.3, 5 * s))
    .png()
    .toBuffer();
  const tag = await renderText(`<span foreground="#ffffff" weight="bold">PROMPT</span>`, { width: 112 * s, size: 17 * s, font: 'mono', align: 'centre' });
  const label = await renderText(`<span foreground="#ffffff" weight="bold">${textSample ? 'Sample answer' : 'Sample result'}</span>`, {
    width: 300 * s,
    size: 15 * s,
    font: 'mono',
  });
  const pill = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${label.width + Math.round(24 * s)}" height="${label.height + Math.round(12 * s)}"><rect width="100%" height="100%" rx="${Math.round(12 * s)}" fill="#000" fill-opacity="0.55"/></svg>`,
  );
  const base = await sharp(Buffer.from(bg)).png().toBuffer();
  const preview = await png(
    sharp(base).composite([
      { input: sample, left: sx, top: sy },
      { input: pill, left: sx + Math.round(14 * s), top: sy + Math.round(14 * s) },
      { input: label.data, left: sx + Math.round(26 * s), top: sy + Math.round(20 * s) },
      {
        input: tag.data,
        left: cardX + Math.round(26 * s) + Math.max(0, Math.round((112 * s - tag.width) / 2)),
        top: cardY + Math.round(26 * s) + Math.max(0, Math.round((32 * s - tag.height) / 2)),
      },
      { input: blurred, left: cardX + pad, top: cardY + pad + Math.round(52 * s) },
      { input: await clip(head), left: cardX + pad, top: cardY + pad + Math.round(52 * s) },
    ]),
  );
  return { preview, sample: unrounded };
}

/** A pack's preview: its items' pictures, one large and the rest beside it. */
async function packPreview(work: DemoWork, width: number, height: number, itemPictures: Map<string, Buffer>): Promise<Buffer> {
  const pics = work.items.map((slug) => itemPictures.get(slug)).filter((b): b is Buffer => !!b);
  const s = width / 960;
  const gap = Math.max(1, Math.round(14 * s));
  type Box = { x: number; y: number; w: number; h: number };
  const boxes: Box[] = [];
  const inner = { x: gap, y: gap, w: width - gap * 2, h: height - gap * 2 };
  if (pics.length === 4) {
    const w = Math.floor((inner.w - gap) / 2);
    const h = Math.floor((inner.h - gap) / 2);
    for (let i = 0; i < 4; i++) boxes.push({ x: inner.x + (i % 2) * (w + gap), y: inner.y + Math.floor(i / 2) * (h + gap), w, h });
  } else {
    const bigW = Math.floor(inner.w * 0.58);
    boxes.push({ x: inner.x, y: inner.y, w: bigW, h: inner.h });
    const rest = pics.length - 1;
    const cols = rest > 2 ? 2 : 1;
    const rows = Math.ceil(rest / cols);
    const cw = Math.floor((inner.w - bigW - gap - (cols - 1) * gap) / cols);
    const ch = Math.floor((inner.h - (rows - 1) * gap) / rows);
    for (let i = 0; i < rest; i++)
      boxes.push({ x: inner.x + bigW + gap + (i % cols) * (cw + gap), y: inner.y + Math.floor(i / cols) * (ch + gap), w: cw, h: ch });
  }
  const tiles: OverlayOptions[] = [];
  for (const [i, box] of boxes.entries()) {
    const pic = pics[i];
    if (!pic) continue;
    const radius = Math.round(12 * s);
    const mask = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${box.w}" height="${box.h}"><rect width="${box.w}" height="${box.h}" rx="${radius}" fill="#fff"/></svg>`,
    );
    const tile = await png(
      sharp(pic)
        .resize(box.w, box.h, { fit: 'cover', position: textSampled(work.items[i]!) ? 'left top' : isDocument(work.items[i]!) ? 'top' : 'centre' })
        .composite([{ input: mask, blend: 'dest-in' }]),
    );
    tiles.push({ input: tile, left: box.x, top: box.y });
  }
  const h0 = hue(work.slug);
  const bg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="hsl(${h0} 30% 12%)"/></svg>`;
  const base = await sharp(Buffer.from(bg)).png().toBuffer();
  return png(sharp(base).composite(tiles));
}

/** `picture`: what a pack's collage shows of the work (unmarked); `files`: what goes to storage. */
type Rendered = { picture: Buffer; files: DemoFile[] };

/** One work's files: its preview copies and its private original (image or document). */
export async function renderWork(work: DemoWork, size: SeedImageSize, itemPictures: Map<string, Buffer>): Promise<Rendered> {
  const [pw, ph] = ART_SIZES[size].preview;
  const keys = demoKeys(work);
  const files: DemoFile[] = [];
  let picture: Buffer;
  let collagePicture: Buffer | null = null;
  if (work.kind === 'image') {
    const [ow, oh] = ART_SIZES[size].original;
    const original = await paintScene(work.slug, ow, oh);
    files.push({ visibility: 'private', key: keys.original!, data: original });
    picture = await png(sharp(original).resize(pw, ph));
  } else if (work.kind === 'doc') {
    const made = await documentPreview(work, pw, ph);
    picture = made.preview;
    // In a pack's collage, a text shows its first page.
    collagePicture = made.page;
    const doc = demoDocuments[work.slug];
    const text = doc ? documentText(work.title, work.description, doc) : `${work.title}\n\n${work.description}\n`;
    files.push({ visibility: 'private', key: keys.original!, data: Buffer.from(text) });
  } else if (work.kind === 'prompt') {
    const made = await promptPreview(work, pw, ph);
    picture = made.preview;
    // In a pack's collage, a prompt shows its sample result.
    collagePicture = made.sample;
  } else {
    picture = await packPreview(work, pw, ph, itemPictures);
  }
  const marked = await watermark(picture, pw, ph);
  for (const f of await previewFiles(keys.preview, marked)) files.push({ visibility: 'public', ...f });
  return { picture: collagePicture ?? picture, files };
}

/** Runs `task` over `items`, at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

/** Every demo file (avatars, previews, originals), handed to `emit` as each is ready. */
export async function renderDemoFiles(size: SeedImageSize, emit: (file: DemoFile) => Promise<void>, opts: { concurrency?: number } = {}): Promise<void> {
  const concurrency = opts.concurrency ?? 3;
  const people = [...demoAccounts, ...demoCreators].map((p) => p.nickname);
  await pool(people, concurrency, async (nickname) => {
    for (const px of [150, 300]) await emit({ visibility: 'public', key: `avatars/demo/${nickname}-${px}.webp`, data: await renderAvatar(nickname, px) });
  });
  const pictures = new Map<string, Buffer>();
  await pool(demoWorks, concurrency, async (work) => {
    const out = await renderWork(work, size, pictures);
    pictures.set(work.slug, out.picture);
    for (const f of out.files) await emit(f);
  });
  await pool(demoPackWorks, concurrency, async (work) => {
    for (const f of (await renderWork(work, size, pictures)).files) await emit(f);
  });
}
