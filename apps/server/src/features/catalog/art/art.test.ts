import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DemoFile, renderDemoFiles, renderWork } from './render';
import { demoKeys, demoPackWorks, demoWorks } from './works';

/** Each preview shrunk to 16×12 RGB: what a glance at a card sees. */
async function thumbnail(webp: Buffer): Promise<Buffer> {
  return sharp(webp).resize(16, 12, { fit: 'fill' }).removeAlpha().raw().toBuffer();
}

/** Mean absolute difference per channel, 0–255. */
function difference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

describe('demo pictures', () => {
  const files = new Map<string, DemoFile>();
  beforeAll(async () => {
    await renderDemoFiles('small', async (f) => {
      files.set(`${f.visibility}:${f.key}`, f);
    });
  }, 120_000);

  const works = [...demoWorks, ...demoPackWorks];

  it('gives every demo work a preview that looks unlike every other', async () => {
    const thumbs = await Promise.all(
      works.map(async (w) => {
        const preview = files.get(`public:${demoKeys(w).preview}`);
        expect(preview, w.slug).toBeDefined();
        return { slug: w.slug, thumb: await thumbnail(preview!.data) };
      }),
    );
    let closest = { a: '', b: '', diff: Number.POSITIVE_INFINITY };
    for (let i = 0; i < thumbs.length; i++) {
      for (let j = i + 1; j < thumbs.length; j++) {
        const diff = difference(thumbs[i]!.thumb, thumbs[j]!.thumb);
        if (diff < closest.diff) closest = { a: thumbs[i]!.slug, b: thumbs[j]!.slug, diff };
      }
    }
    // A picture scores 0 against itself; the closest two demo previews score about 17.
    expect(closest.diff, `${closest.a} and ${closest.b} look alike`).toBeGreaterThan(12);
  });

  it('writes the smaller copies of each preview and a private full-resolution original for images', async () => {
    for (const w of works) {
      const { preview, original } = demoKeys(w);
      for (const width of [480, 720]) expect(files.has(`public:${preview.replace('.webp', `-${width}.webp`)}`), `${w.slug} ${width}`).toBe(true);
      if (w.kind === 'image') {
        const file = files.get(`private:${original}`)!;
        const meta = await sharp(file.data).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(['png', 320, 240]);
        expect(files.has(`public:${original}`)).toBe(false);
      }
    }
  });

  it('makes each demo text a real document: its title, headings and paragraphs', () => {
    const doc = files.get('private:products/guide-to-sourdough/guide-to-sourdough.txt')!.data.toString('utf8');
    expect(doc.startsWith('Guide to Sourdough\n')).toBe(true);
    expect(doc).toContain('Hydration, simply');
    expect(doc).toContain('Feed it equal weights of both every day');
    for (const w of demoWorks.filter((x) => x.kind === 'doc')) {
      const text = files.get(`private:${demoKeys(w).original}`)!.data.toString('utf8');
      expect(text.split('\n\n').length, w.slug).toBeGreaterThan(4);
    }
  });

  it('sets text in the shipped typeface: a document preview has dark ink on its light page', async () => {
    const work = demoWorks.find((w) => w.slug === 'brand-voice-guide')!;
    const { files: full } = await renderWork(work, 'full', new Map());
    const { data, info } = await sharp(full.find((f) => f.key === demoKeys(work).preview)!.data)
      .resize(480)
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    // The page's middle column: mostly paper, with enough dark pixels to be lines of text.
    let dark = 0;
    let light = 0;
    for (let y = Math.round(info.height * 0.2); y < info.height * 0.8; y++) {
      for (let x = Math.round(info.width * 0.3); x < info.width * 0.6; x++) {
        const v = data[y * info.width + x]!;
        if (v < 110) dark++;
        else if (v > 220) light++;
      }
    }
    expect(light).toBeGreaterThan(dark * 3);
    expect(dark).toBeGreaterThan(200);
  });

  it('marks every preview subtly: the picture stays as it was, with a label in its lower right corner', async () => {
    const work = demoWorks.find((w) => w.slug === 'harbour-at-dusk')!;
    const { picture, files: made } = await renderWork(work, 'full', new Map());
    const marked = made.find((f) => f.key === demoKeys(work).preview)!.data;
    const grey = (img: Buffer) => sharp(img).resize(960, 720).greyscale().raw().toBuffer();
    const [a, b] = await Promise.all([grey(picture), grey(marked)]);
    const region = (x0: number, y0: number, x1: number, y1: number) => {
      let sum = 0;
      let n = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          sum += Math.abs(a[y * 960 + x]! - b[y * 960 + x]!);
          n++;
        }
      }
      return sum / n;
    };
    expect(region(0, 0, 960, 720)).toBeLessThan(6);
    expect(region(760, 670, 950, 710)).toBeGreaterThan(region(0, 0, 960, 720) * 3);
  });
});
