import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';
import { SHELL } from '../../../test/web-build';

/**
 * A stand-in for the web app's server renderer (its real render is tested in apps/web/src/entry-server.test.tsx):
 * it says which address it rendered, in which language, as the real one renders `/de/...` in German.
 */
const RENDERER = `export async function render({ url }) {
  const locale = /^\\/de(\\/|$|\\?)/.test(url) ? 'de' : 'en';
  const text = locale === 'de' ? 'Willkommen' : 'Welcome';
  return { html: '<main data-rendered="' + encodeURIComponent(url) + '" data-locale="' + locale + '">' + text + '</main>', scripts: '', background: 'default', locale, passes: 1 };
}
`;

const t = useTestApp({
  seed: true,
  web: { 'dist/index.html': SHELL, 'dist-ssr/entry-server.js': RENDERER },
  env: { PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' },
});

const page = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1];
const canonicalOf = (html: string) => [...html.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((m) => m[1]);
const alternatesOf = (html: string) =>
  Object.fromEntries([...html.matchAll(/<link rel="alternate" hreflang="([^"]*)" href="([^"]*)"/g)].map((m) => [m[1], m[2]]));

describe('pages under /de and /en are rendered on the server (issue 31 item 12)', () => {
  it('/de and /en answer the rendered page in their language, with hreflang alternates and a canonical link', async () => {
    const cases = [
      { url: '/de', lang: 'de', text: 'Willkommen', canonical: 'https://atelier.example/de', path: '/' },
      { url: '/en', lang: 'en', text: 'Welcome', canonical: 'https://atelier.example/', path: '/' },
      { url: '/de/contact', lang: 'de', text: 'Willkommen', canonical: 'https://atelier.example/de/contact', path: '/contact' },
      { url: '/en/products', lang: 'en', text: 'Welcome', canonical: 'https://atelier.example/products', path: '/products' },
      { url: '/contact', lang: 'en', text: 'Welcome', canonical: 'https://atelier.example/contact', path: '/contact' },
    ];
    for (const c of cases) {
      const res = await page(c.url);
      expect(res.statusCode, c.url).toBe(200);
      expect(res.headers['content-type'], c.url).toBe('text/html; charset=utf-8');
      expect(langOf(res.body), c.url).toBe(c.lang);
      // The app's markup is in the page, not an empty shell.
      expect(res.body, c.url).toContain(`<div id="root"><main data-rendered="${encodeURIComponent(c.url)}" data-locale="${c.lang}">${c.text}</main></div>`);
      expect(canonicalOf(res.body), c.url).toEqual([c.canonical]);
      const suffix = c.path === '/' ? '' : c.path;
      expect(alternatesOf(res.body), c.url).toEqual({
        en: `https://atelier.example${c.path}`,
        de: `https://atelier.example/de${suffix}`,
        'x-default': `https://atelier.example${c.path}`,
      });
    }
  });

  it('a product page under /de is rendered, its canonical link in German and one per page', async () => {
    const res = await page('/de/products/aurora-over-fjords');
    expect(res.statusCode).toBe(200);
    expect(langOf(res.body)).toBe('de');
    expect(res.body).toContain('data-locale="de">Willkommen</main>');
    expect(canonicalOf(res.body)).toEqual(['https://atelier.example/de/products/aurora-over-fjords']);
    expect(alternatesOf(res.body)).toEqual({
      en: 'https://atelier.example/products/aurora-over-fjords',
      de: 'https://atelier.example/de/products/aurora-over-fjords',
      'x-default': 'https://atelier.example/products/aurora-over-fjords',
    });
  });

  it('private pages get no language links; a missing page under /de is a 404 in German', async () => {
    expect(alternatesOf((await page('/de/dashboard')).body)).toEqual({});
    const missing = await page('/de/products/no-such-product');
    expect(missing.statusCode).toBe(404);
    expect(langOf(missing.body)).toBe('de');
  });
});
