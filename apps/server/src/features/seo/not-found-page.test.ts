import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';
import { SHELL } from '../../../test/web-build';

/** A stand-in for the web app's server renderer: it says which address it rendered. */
const RENDERER = `export async function render({ url }) {
  return { html: '<section data-rendered="' + encodeURIComponent(url) + '">rendered</section>', scripts: '', background: 'default' };
}
`;

const t = useTestApp({
  seed: true,
  web: { 'dist/index.html': SHELL, 'dist-ssr/entry-server.js': RENDERER },
  env: { PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' },
});

const page = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe('not-found pages (issue 18 bug 9)', () => {
  it('issue 18 bug 9: an unknown address answers 404 with the not-found page rendered by the server', async () => {
    for (const url of ['/this/does/not/exist', '/productz', '/xx/products']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(titleOf(res.body), url).toBe('Page not found — Atelier');
      expect(res.body, url).toContain('noindex');
      // The app rendered at that address (its catch-all route is the not-found page, no redirect).
      expect(res.body, url).toContain(`<div id="root"><section data-rendered="${encodeURIComponent(url)}">rendered</section></div>`);
    }
  });

  it('issue 18 bug 9: a missing product, pack or profile answers 404 with its own title', async () => {
    const titles: Record<string, string> = {
      '/products/no-such-product': 'Product not found — Atelier',
      '/packs/no-such-pack': 'Pack not found — Atelier',
      '/profile/nobody-here': 'Profile not found — Atelier',
      '/page/no-such-page': 'Page not found — Atelier',
    };
    for (const [url, title] of Object.entries(titles)) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(titleOf(res.body), url).toBe(title);
      expect(res.body, url).toContain('data-rendered=');
    }
    // Pages that exist still answer 200.
    for (const url of ['/', '/products', '/contact', '/products/aurora-over-fjords', '/profile/sofia', '/404']) {
      expect((await page(url)).statusCode, url).toBe(200);
    }
  });
});

describe('server-rendered titles (issue 18 conformance)', () => {
  it('issue 18 conformance: /products, its type lists, /contact, /404 and a missing profile carry their titles in the HTML', async () => {
    const titles: Record<string, string> = {
      '/products': 'Shop — Atelier',
      '/products/image': 'Images — Atelier',
      '/products/prompt?page=2': 'Prompts — Atelier',
      '/products?type=doc': 'Texts — Atelier',
      '/contact': 'Contact us — Atelier',
      '/404': 'Page not found — Atelier',
      '/profile/nobody-here': 'Profile not found — Atelier',
      '/products/aurora-over-fjords': 'Aurora Over Fjords — Atelier',
      '/de/products/image': 'Bilder — Atelier',
    };
    for (const [url, title] of Object.entries(titles)) {
      const res = await page(url);
      expect(titleOf(res.body), url).toBe(title);
      // One title in the head: the shell's own is replaced, not joined.
      expect(res.body.match(/<title>/g), url).toHaveLength(1);
    }
  });
});

describe('server-rendered titles in German (issue 18: German is complete)', () => {
  it('issue 18: a /de page carries its German title and lang="de" before any script runs, a 404 and a missing profile included', async () => {
    const pages: Record<string, [number, string]> = {
      '/de': [200, 'Startseite — Atelier'],
      '/de/products': [200, 'Katalog — Atelier'],
      '/de/contact': [200, 'Kontakt — Atelier'],
      '/de/404': [200, 'Seite nicht gefunden — Atelier'],
      '/de/this/does/not/exist': [404, 'Seite nicht gefunden — Atelier'],
      '/de/profile/nobody-here': [404, 'Profil nicht gefunden — Atelier'],
      '/de/products/no-such-product': [404, 'Produkt nicht gefunden — Atelier'],
      '/de/page/terms': [200, 'Nutzungsbedingungen — Atelier'],
      '/de/page/no-such-page': [404, 'Seite nicht gefunden — Atelier'],
    };
    for (const [url, [status, title]] of Object.entries(pages)) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(status);
      expect(titleOf(res.body), url).toBe(title);
      expect(res.body.match(/<title>/g), url).toHaveLength(1);
      expect(res.body, url).toContain('<html lang="de">');
    }
    // The shell's description too, where the page has no own one.
    expect((await page('/de/contact')).body).toContain(
      '<meta name="description" content="Kaufe KI-Prompts, ausgefeilte Texte und Originalbilder direkt bei den Menschen, die sie geschaffen haben."',
    );
    // Without the prefix the same pages stay English.
    expect(titleOf((await page('/page/terms')).body)).toBe('Terms of Service — Atelier');
    expect((await page('/products')).body).toContain('<html lang="en">');
    expect(titleOf((await page('/profile/nobody-here')).body)).toBe('Profile not found — Atelier');
  });
});
