import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';
import { SHELL } from '../../../test/web-build';
import { products } from '../../db/schema';

const t = useTestApp({ seed: true, web: { 'dist/index.html': SHELL }, env: { PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' } });

const page = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const metaOf = (html: string, key: string) => new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];

describe('pages for crawlers and shared links', () => {
  it('puts the product title into <title> and og:title, with description, canonical link and image', async () => {
    const res = await page('/products/aurora-over-fjords');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    expect(titleOf(html)).toBe('Aurora Over Fjords — Atelier');
    expect(metaOf(html, 'og:title')).toBe('Aurora Over Fjords');
    expect(metaOf(html, 'twitter:title')).toBe('Aurora Over Fjords');
    expect(metaOf(html, 'description')).toMatch(/^Ribbons of northern light/);
    expect(html).toContain('<link rel="canonical" href="https://atelier.example/products/aurora-over-fjords" />');
    expect(metaOf(html, 'og:image')).toBe('https://atelier.example/storage/products/aurora-over-fjords/preview.webp');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(html).toContain('<div id="root"></div>');
  });

  it('finds a product by id and points the canonical link at its slug', async () => {
    const [row] = await t.app.db.select({ id: products.id }).from(products).where(eq(products.slug, 'neon-tokyo-alley'));
    const html = (await page(`/products/${row!.id}`)).body;
    expect(metaOf(html, 'og:title')).toBe('Neon Tokyo Alley');
    expect(html).toContain('href="https://atelier.example/products/neon-tokyo-alley"');
  });

  it('escapes everything it writes into the head', async () => {
    await t.app.db
      .update(products)
      .set({ title: 'Evil "</title><script>alert(1)</script>', description: '<img src=x onerror=alert(2)> & more' })
      .where(eq(products.slug, 'quiet-bloom'));
    const html = (await page('/products/quiet-bloom')).body;
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toContain('<img src=x');
    expect(titleOf(html)).toBe('Evil &quot;&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; — Atelier');
    expect(metaOf(html, 'description')).toBe('&lt;img src=x onerror=alert(2)&gt; &amp; more');
  });

  it('describes packs, public profiles and static pages', async () => {
    expect(metaOf((await page('/packs/night-lights-collection')).body, 'og:title')).toBe('Night Lights Collection');
    const profile = (await page('/profile/sofia')).body;
    expect(metaOf(profile, 'og:title')).toBe('Sofia Marin (@sofia)');
    expect(metaOf(profile, 'og:type')).toBe('profile');
    const terms = (await page('/page/terms')).body;
    expect(titleOf(terms)).toMatch(/ — Atelier$/);
    expect(metaOf(terms, 'description')).not.toMatch(/<|script/);
  });

  it('titles a product-type list for its type and answers an unknown item with a generic title', async () => {
    const list = await page('/products/image');
    expect(list.statusCode).toBe(200);
    // issue 18 conformance: the list's own title, not the shell's.
    expect(titleOf(list.body)).toBe('Images — Atelier');
    expect(titleOf((await page('/')).body)).toBe('Atelier — marketplace for prompts, texts and original images');
    const missing = await page('/products/no-such-product');
    expect(missing.statusCode).toBe(404);
    expect(titleOf(missing.body)).toBe('Product not found — Atelier');
    expect(missing.body).toContain('<div id="root"></div>');
    expect(missing.body).toContain('noindex');
    expect((await page('/packs/aurora-over-fjords')).statusCode).toBe(404);
    expect((await page('/profile/nobody-here')).statusCode).toBe(404);
    expect((await page('/page/no-such-page')).statusCode).toBe(404);
  });
});

describe('pages under a language prefix (SPEC §2)', () => {
  it('serves /de/... as the app shell with the head and first answers of the page without the prefix', async () => {
    const list = await page('/de/products');
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toContain('text/html');
    expect(list.body).toContain('<div id="root"></div>');
    expect(list.body).toContain('"/api/products/catalog?');
    expect((await page('/de')).statusCode).toBe(200);
    expect((await page('/de/login?redirect=%2Fproducts')).statusCode).toBe(200);
    const product = await page('/de/products/aurora-over-fjords');
    expect(titleOf(product.body)).toBe('Aurora Over Fjords — Atelier');
    expect(product.body).toContain('"/api/products/aurora-over-fjords/info"');
    expect(metaOf((await page('/en/packs/night-lights-collection')).body, 'og:title')).toBe('Night Lights Collection');
    expect((await page('/de/products/no-such-product')).statusCode).toBe(404);
  });

  it('takes no other prefix for a language, and never serves a page for the API', async () => {
    expect((await page('/xx/products/aurora-over-fjords')).body).not.toContain('Aurora Over Fjords');
    const api = await t.app.inject({ method: 'GET', url: '/api/de/products' });
    expect(api.statusCode).toBe(404);
    expect(api.json().status).toBe('ERROR');
  });
});

describe('malformed page addresses', () => {
  it('answers a key no item can have (a NUL character, an id beyond the range of ids) with the 404 page', async () => {
    const titles: Record<string, string> = {
      '/profile/a%00b': 'Profile not found — Atelier',
      '/products/%00': 'Product not found — Atelier',
      '/packs/a%00b': 'Pack not found — Atelier',
      '/page/9223372036854775808': 'Page not found — Atelier',
      '/profile/123456789012345678901234': 'Profile not found — Atelier',
    };
    for (const [url, title] of Object.entries(titles)) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(titleOf(res.body), url).toBe(title);
    }
  });

  it('answers a page address with a broken %-escape with an HTML error page, never the JSON envelope', async () => {
    const res = await page('/products/%E0%A4%A');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(titleOf(res.body)).toBe('This address cannot be opened — Atelier');
    expect(res.body).toContain('This address is not valid: check the link for a broken %-escape.');
    expect(res.body).toContain('<a href="/">Back to the home page</a>');
    // The API keeps its envelope, whatever the client accepts.
    const api = await page('/api/products/%E0%A4%A/info');
    expect(api.json()).toEqual({ status: 'ERROR', message: 'This address is not valid: check the link for a broken %-escape.' });
  });
});

describe('sitemap and robots', () => {
  it('lists products, packs, public profiles and static pages with absolute URLs', async () => {
    const res = await t.app.inject({ url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    expect(res.headers.etag).toBeDefined();
    const xml = res.body;
    expect(xml).toContain('<loc>https://atelier.example/products/aurora-over-fjords</loc>');
    expect(xml).toContain('<loc>https://atelier.example/packs/night-lights-collection</loc>');
    expect(xml).toContain('<loc>https://atelier.example/profile/sofia</loc>');
    expect(xml).toContain('<loc>https://atelier.example/page/terms</loc>');
    expect(xml).not.toContain('/products/night-lights-collection');
    expect((xml.match(/<url>/g) ?? []).length).toBeGreaterThan(39);
  });

  it('points robots.txt at the sitemap', async () => {
    const res = await t.app.inject({ url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Sitemap: https://atelier.example/sitemap.xml');
    expect(res.body).toContain('Disallow: /api/');
  });
});
