import { fullPagePath, PAGE_LIST, type PageName, pageChain, pageDef } from '@atelier/shared/pages';
import { preloadKey } from '@atelier/shared/preload';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';
import { products } from '../../db/schema';

/**
 * The server reads every page from the page table (packages/shared/src/pages.ts): a page marked `ssr`
 * is rendered on the server, any other is not, each links its own route module, and a page's preload
 * calls go into its HTML. A page added to the table is covered here without a line of this file changing.
 */

const SHELL = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Atelier</title></head><body><div id="root"></div></body></html>';

/**
 * Stands in for the web build's server renderer (apps/web/src/entry-server.tsx), which renders any page
 * it is handed; with the cookie `fail_render` it fails, as a render that breaks or takes too long.
 */
const RENDERER = `export async function render({ url, cookies }) {
  if (cookies.fail_render) throw new Error('the render failed');
  return { html: '<main data-rendered="' + encodeURIComponent(url) + '"></main>', scripts: '', background: 'default' };
}
`;

const moduleFile = (module: string) => `assets/route-${module}.js`;

const manifest: Record<string, { file: string; isEntry?: boolean; isDynamicEntry?: boolean }> = {
  'index.html': { file: 'assets/index-1.js', isEntry: true },
};
for (const { module } of PAGE_LIST) manifest[`src/app/routes/${module}.tsx`] = { file: moduleFile(module), isDynamicEntry: true };
const t = useTestApp({
  seed: true,
  web: { 'dist/index.html': SHELL, 'dist-ssr/entry-server.js': RENDERER, 'dist/.vite/manifest.json': JSON.stringify(manifest) },
});

const page = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

/** An address of the page: its pattern with each param filled in and each optional one left out. */
const exampleOf = (name: PageName) =>
  fullPagePath(name)
    .replace(/\/:\w+\?/g, '')
    .replace(/:(\w+)/g, 'some-$1') || '/';

describe('every page of the page table, as the server serves it', () => {
  it('renders on the server exactly the pages marked ssr, and links each page its route modules', async () => {
    expect(PAGE_LIST.length).toBeGreaterThan(20);
    for (const { name } of PAGE_LIST) {
      const url = exampleOf(name);
      const res = await page(url);
      expect(res.headers['content-type'], url).toContain('text/html');
      const rendered = res.body.includes(`<main data-rendered="${encodeURIComponent(url)}">`);
      expect(rendered, `${name} (${url}) is ${pageDef(name).ssr ? '' : 'not '}server-rendered in the table`).toBe(pageDef(name).ssr === true);
      for (const n of pageChain(name)) expect(res.body, `${name} links ${pageDef(n).module}`).toContain(`href="/${moduleFile(pageDef(n).module)}"`);
    }
  });

  it('renders each page under a language prefix too, and puts its preload calls into its HTML when the browser renders it', async () => {
    const search = new URLSearchParams();
    for (const { name, preload } of PAGE_LIST) {
      if (!preload) continue;
      const url = `/de${exampleOf(name) === '/' ? '' : exampleOf(name)}`;
      // Issue 31: a page under /de is rendered on the server, as without the prefix.
      expect((await page(url)).body, url).toContain(`<main data-rendered="${encodeURIComponent(url)}">`);
      // When the render fails, the page goes to the browser, and its first answers travel in the HTML.
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', cookie: 'fail_render=1' } });
      expect(res.body, url).not.toContain('data-rendered');
      const params = Object.fromEntries([...url.matchAll(/some-(\w+)/g)].map((m) => [m[1]!, m[0]]));
      for (const call of preload(params, search)) {
        const query = new URLSearchParams();
        for (const [k, v] of Object.entries(call.query ?? {})) for (const one of [v ?? []].flat()) query.append(k, String(one));
        const key = preloadKey(`${call.path}?${query}`);
        expect(res.body, `${url} carries ${key}`).toContain(JSON.stringify(key));
      }
    }
  });
});

describe('a pack opened as a product', () => {
  it('moves for good to its own address, by slug or by id, keeping the language and the query', async () => {
    const bySlug = await page('/products/night-lights-collection');
    expect(bySlug.statusCode).toBe(301);
    expect(bySlug.headers.location).toBe('/packs/night-lights-collection');
    const [pack] = await t.app.db.select({ id: products.id }).from(products).where(eq(products.slug, 'night-lights-collection'));
    const byId = await page(`/de/products/${pack!.id}?ref=mail`);
    expect(byId.statusCode).toBe(301);
    expect(byId.headers.location).toBe('/de/packs/night-lights-collection?ref=mail');
    // The pack's own page, and a product that is not a pack, stay where they are.
    expect((await page('/packs/night-lights-collection')).statusCode).toBe(200);
    expect((await page('/products/aurora-over-fjords')).statusCode).toBe(200);
  });
});
