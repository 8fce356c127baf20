import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, open, screenshot } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

type Shown = { src: string; width: number; complete: boolean };
// The page's globals, for the functions below that run in the browser (page.evaluate): this file is typed
// without the DOM library. Only declared, so those functions reach the browser's own.
declare const document: {
  querySelectorAll(s: string): ArrayLike<{ currentSrc: string; src: string; naturalWidth: number; complete: boolean; loading: string }>;
  scrollingElement: { scrollHeight: number };
};
declare const innerHeight: number;
declare function scrollTo(x: number, y: number): void;

/**
 * Asks for every picture in main at once (the ones a carousel keeps off screen too), scrolls through the
 * page, then waits until each has loaded or failed.
 */
async function loadAllPictures(page: Page): Promise<Shown[]> {
  await page.evaluate(() => {
    for (const img of Array.from(document.querySelectorAll('main img'))) img.loading = 'eager';
  });
  const height = await page.evaluate(() => document.scrollingElement.scrollHeight);
  const step = await page.evaluate(() => innerHeight);
  for (let y = 0; y < height; y += step) {
    await page.evaluate((to) => scrollTo(0, to), y);
    await page.waitForTimeout(80);
  }
  await page.evaluate(() => scrollTo(0, 0));
  await page.waitForFunction(() => Array.from(document.querySelectorAll('main img')).every((img) => img.complete), undefined, {
    timeout: 15_000,
  });
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('main img')).map((img) => ({
      src: img.currentSrc || img.src,
      width: img.naturalWidth,
      complete: img.complete,
    })),
  );
}

const viewports = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 375, height: 740 },
] as const;

describe('the demo works are visible', () => {
  const pages: Array<{ name: string; path: () => Promise<string>; previews: number; heading?: RegExp }> = [
    { name: 'home', path: async () => '/', previews: 4 },
    { name: 'shop', path: async () => '/products', previews: 6 },
    { name: 'image-product', path: async () => '/products/aurora-over-fjords', previews: 1, heading: /Aurora Over Fjords/ },
    { name: 'prompt-product', path: async () => '/products/cinematic-portrait-prompt', previews: 1, heading: /Cinematic Portrait Prompt/ },
    { name: 'text-product', path: async () => '/products/guide-to-sourdough', previews: 1, heading: /Guide to Sourdough/ },
    { name: 'pack', path: async () => '/packs/night-lights-collection', previews: 1, heading: /Night Lights Collection/ },
    { name: 'profile', path: async () => '/profile/sofia', previews: 0, heading: /Sofia/ },
  ];

  for (const vp of viewports) {
    for (const p of pages) {
      it(`${p.name} at ${vp.width} px shows its pictures, decoded`, async () => {
        const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height } });
        await context.addCookies([{ name: 'cookie_consent', value: 'essential', url: baseUrl() }]);
        const page = await context.newPage();
        const failed: string[] = [];
        page.on('response', (res) => {
          if (res.url().includes('/storage/') && res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
        });
        await open(page, `${baseUrl()}${await p.path()}`);
        if (p.heading) await page.getByRole('heading', { level: 1, name: p.heading }).waitFor();
        else await page.locator('main img').first().waitFor();
        const shown = await loadAllPictures(page);
        const broken = shown.filter((img) => img.width === 0);
        expect(broken, 'pictures that did not decode').toEqual([]);
        expect(failed).toEqual([]);
        // A demo work's preview is under products/, a work bought from a creator keeps its offer's preview.
        expect(shown.filter((img) => /\/storage\/(products|offers)\//.test(img.src)).length).toBeGreaterThanOrEqual(p.previews);
        if (p.previews === 0) expect(shown.length).toBeGreaterThan(0);
        await screenshot(page, `pictures-${p.name}-${vp.width}`);
        await context.close();
      }, 150_000);
    }
  }
});
