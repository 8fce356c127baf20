import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewSrcSet, savePreview } from './previews';
import { createLocalStorage, type LocalStorage } from './storage';

let dir: string;
let storage: LocalStorage;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atelier-previews-'));
  storage = createLocalStorage(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const widthOf = async (key: string) => (await sharp(await readFile(path.join(storage.publicRoot, key))).metadata()).width;

describe('product previews', () => {
  it('stores a large picture at 960, 720 and 480 px wide, all WebP, and names them in a srcset', async () => {
    const big = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    await savePreview(storage, 'products/harbour/preview.webp', big);
    expect(await widthOf('products/harbour/preview.webp')).toBe(960);
    expect(await widthOf('products/harbour/preview-720.webp')).toBe(720);
    expect(await widthOf('products/harbour/preview-480.webp')).toBe(480);
    const meta = await sharp(await readFile(path.join(storage.publicRoot, 'products/harbour/preview-480.webp'))).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.height).toBe(360);
    expect(previewSrcSet('products/harbour/preview.webp')).toBe(
      '/storage/products/harbour/preview-480.webp 480w, /storage/products/harbour/preview-720.webp 720w, /storage/products/harbour/preview.webp 960w',
    );
  });

  it('never enlarges a small picture', async () => {
    const small = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#aa3366' } })
      .png()
      .toBuffer();
    await savePreview(storage, 'products/tiny/preview.webp', small);
    expect(await widthOf('products/tiny/preview-720.webp')).toBe(300);
  });

  it('gives no srcset for a product without a preview', () => {
    expect(previewSrcSet(null)).toBeNull();
    expect(previewSrcSet('products/x/cover.png')).toBeNull();
  });
});
