import { brotliDecompressSync } from 'node:zlib';
import type { Preload } from '@atelier/shared/preload';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerUser } from '../../../test/accounts';
import { TestClient, useTestApp } from '../../../test/test-app';
import { products, productViews } from '../../db/schema';
import { viewCounterOf } from '../analytics';

const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Atelier</title>
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body><div id="root"></div></body>
</html>`;

const t = useTestApp({
  seed: true,
  web: {
    'dist/index.html': SHELL,
    'dist/assets/index-abc.css': 'body{color:#123456}',
    'dist/.vite/manifest.json': JSON.stringify({
      'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_shared.js'] },
      '_shared.js': { file: 'assets/shared-2.js' },
      'src/app/routes/products.tsx': { file: 'assets/products-3.js', imports: ['_shared.js', '_card.js'], isDynamicEntry: true },
      '_card.js': { file: 'assets/card-4.js', css: ['assets/card-5.css'] },
    }),
  },
});

function preloadOf(html: string): Preload {
  const json = /<script type="application\/json" id="atelier-preload">([\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(json, 'the page carries a preload').toBeDefined();
  return JSON.parse(json!) as Preload;
}

/** The body of one preloaded answer (the test fails when the answer is missing). */
function bodyOf<T>(preload: Preload, key: string): T {
  expect(preload[key], key).toBeDefined();
  return preload[key]!.body as T;
}

const page = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });

describe('API answers inside the HTML of a page', () => {
  it("answers a product page's first calls: the shell calls and the product, priced in the default currency", async () => {
    const res = await page('/products/aurora-over-fjords');
    expect(res.statusCode).toBe(200);
    const preload = preloadOf(res.body);
    expect(preload['/api/is-auth']).toMatchObject({ status: 200, body: { status: 'OK', payload: { authenticated: false } }, currency: null });
    for (const key of ['/api/settings', '/api/currencies', '/api/static-pages', '/api/social-links', '/api/categories']) {
      expect(preload[key]?.status, key).toBe(200);
    }
    const product = preload['/api/products/aurora-over-fjords/info'];
    expect(product).toMatchObject({ status: 200, currency: 'EUR', body: { payload: { title: 'Aurora Over Fjords', currency: 'EUR' } } });
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });

  it('prices the answers in the currency saved in the visitor cookie', async () => {
    const eur = preloadOf((await page('/products/aurora-over-fjords')).body)['/api/products/aurora-over-fjords/info'];
    const usd = preloadOf((await page('/products/aurora-over-fjords', 'selectedCurrency=USD')).body)['/api/products/aurora-over-fjords/info'];
    expect(usd?.currency).toBe('USD');
    const eurPrice = (eur!.body as { payload: { price: number } }).payload.price;
    const usdPrice = (usd!.body as { payload: { price: number } }).payload.price;
    expect(usdPrice).toBeCloseTo(Math.round(eurPrice * 1.08 * 100) / 100, 2);
    // An unknown code falls back to the default, as the web app does.
    expect(preloadOf((await page('/products/aurora-over-fjords', 'selectedCurrency=XYZ')).body)['/api/products/aurora-over-fjords/info']?.currency).toBe('EUR');
  });

  it('answers the catalog call the product list makes for the state in its URL', async () => {
    const preload = preloadOf((await page('/products/image?sort=price~asc&page=1&search=%20fjords%20')).body);
    const key = '/api/products/catalog?limit=6&page=1&product_type=image&search=fjords&sort=price%7Easc';
    expect(Object.keys(preload)).toContain(key);
    const body = bodyOf<{ payload: { title: string }[] }>(preload, key);
    expect(body.payload.map((p) => p.title)).toContain('Aurora Over Fjords');
  });

  it("answers a creator profile's works, paged and sorted as its URL says (issue 12)", async () => {
    const preload = preloadOf((await page('/profile/sofia?sort=price~asc&page=2')).body);
    expect(preload['/api/user/public-profile/sofia']?.status).toBe(200);
    const key = '/api/products/catalog?author=sofia&limit=6&page=2&sort=price%7Easc';
    const body = bodyOf<{ payload: { authorNickname: string; price: number }[]; meta: { page: number } }>(preload, key);
    expect(body.meta.page).toBe(2);
    expect(body.payload.length).toBeGreaterThan(0);
    expect(body.payload.every((p) => p.authorNickname === 'sofia')).toBe(true);
    const prices = body.payload.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('answers the home carousel and a static page', async () => {
    const home = preloadOf((await page('/')).body);
    const random = bodyOf<{ payload: { product_type: string }[] }>(home, '/api/products/random?limit=10&product_type=prompt');
    expect(random.payload.length).toBeGreaterThan(0);
    expect(random.payload.every((p) => p.product_type === 'prompt')).toBe(true);
    const terms = preloadOf((await page('/page/terms')).body);
    expect(terms['/api/static-pages/terms']?.status).toBe(200);
  });

  it("carries a signed-in visitor's own profile, and nobody else's", async () => {
    const { client, person } = await registerUser(t.app);
    const mine = preloadOf((await page('/', client.cookieHeader)).body);
    expect(mine['/api/is-auth']?.body).toMatchObject({ payload: { authenticated: true } });
    expect(mine['/api/user/profile']?.body).toMatchObject({ payload: { email: person.email } });
    const other = await registerUser(t.app);
    const theirs = (await page('/', other.client.cookieHeader)).body;
    expect(theirs).not.toContain(person.email);
    const guest = (await page('/')).body;
    expect(guest).not.toContain(person.email);
    expect(preloadOf(guest)['/api/user/profile']).toBeUndefined();
  });

  it('keeps user text from closing the script element', async () => {
    await t.app.db.update(products).set({ title: 'Evil </script><script>alert(1)</script>' }).where(eq(products.slug, 'quiet-bloom'));
    const html = (await page('/products/quiet-bloom')).body;
    expect(html).not.toContain('<script>alert(1)');
    expect(bodyOf<{ payload: { title: string } }>(preloadOf(html), '/api/products/quiet-bloom/info').payload.title).toBe(
      'Evil </script><script>alert(1)</script>',
    );
  });

  it('links the route module of the page and inlines the main stylesheet', async () => {
    const html = (await page('/products')).body;
    expect(html).toContain('<style>body{color:#123456}</style>');
    expect(html).not.toContain('index-abc.css');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/products-3.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/card-4.js">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/card-5.css">');
    // Already linked by index.html itself.
    expect(html).not.toContain('shared-2.js');
    expect((await page('/')).body).not.toContain('products-3.js');
  });

  it('sends pages compressed to browsers that accept it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/products', headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('id="atelier-preload"');
  });

  it('still serves a page when a first call fails: that answer is simply left out', async () => {
    const client = new TestClient(t.app);
    const res = await page('/products/no-such-thing', client.cookieHeader);
    expect(res.statusCode).toBe(404);
    expect(preloadOf(res.body)['/api/products/no-such-thing/info']?.status).toBe(404);
  });
});

describe('a served product page is a view (issue 20)', () => {
  it("counts a person's browser once a day, never a crawler", async () => {
    const [work] = await t.app.db.select({ id: products.id }).from(products).where(eq(products.slug, 'aurora-over-fjords'));
    const viewsOf = async () => {
      await viewCounterOf(t.app.db).flush();
      const rows = await t.app.db.select({ views: productViews.views }).from(productViews).where(eq(productViews.productId, work!.id));
      return rows.reduce((sum, r) => sum + r.views, 0);
    };
    const before = await viewsOf();
    const visit = (userAgent: string, remoteAddress: string) =>
      t.app.inject({ method: 'GET', url: '/products/aurora-over-fjords', remoteAddress, headers: { accept: 'text/html', 'user-agent': userAgent } });
    const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
    expect((await visit(browser, '198.51.100.7')).statusCode).toBe(200);
    expect((await visit(browser, '198.51.100.7')).statusCode).toBe(200);
    expect((await visit('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', '198.51.100.8')).statusCode).toBe(200);
    expect(await viewsOf()).toBe(before + 1);
  });
});
