// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { render, renderCountForTests } from './entry-server';
import { aProduct } from './test/fixtures';
import { json, ok, shellAnswer } from './test/server-render-answers';

/**
 * The server render (issue 31 item 12): a page under /de or /en is rendered in its language, and each
 * page is rendered once from the top, with the answers it shows already in it. The API is answered
 * here as the server answers it in-process; a call nobody answers is a 404, shown in place.
 */
function api(asked: string[]) {
  return async (url: string) => {
    asked.push(url);
    const { pathname, searchParams } = new URL(url, 'http://localhost');
    switch (pathname) {
      case '/api/products/random': {
        const type = searchParams.get('product_type') ?? 'prompt';
        return ok([aProduct({ id: 40, slug: `fox-${type}`, title: `Fox at dawn (${type})`, product_type: type as 'prompt' })]);
      }
      default:
        return shellAnswer(pathname) ?? json(404, { status: 'ERROR', message: 'Not found.' });
    }
  };
}

async function renderPage(url: string) {
  const asked: string[] = [];
  const before = renderCountForTests();
  const result = await render({ url, cookies: {}, fetch: api(asked) });
  return { result: result!, renders: renderCountForTests() - before, asked };
}

describe('server rendering', () => {
  it('renders /de in German and /en in English, each in one pass, with the answers it asked in the HTML', async () => {
    const de = await renderPage('/de');
    expect(de.result.locale).toBe('de');
    expect(de.renders).toBe(1);
    expect(de.result.passes).toBe(1);
    // The content the page's queries brought is in the one pass's HTML, in German.
    expect(de.result.html).toContain('Fox at dawn (prompt)');
    expect(de.result.html).toContain('Zum Inhalt springen');
    // No part was left for the browser to render (React error #419 on hydration).
    expect(de.result.html).not.toContain('<!--$!-->');
    expect(de.result.html).not.toContain('<!--$?-->');
    // Every part inline: no script moves a part into place (the Content-Security-Policy would not run it).
    expect(de.result.html).not.toContain('<script');
    expect(de.result.html).not.toContain('<template');
    // The words the page shows go along in its language, with the language, for the browser's first render.
    expect(de.result.scripts).toContain('"locale":"de"');
    expect(de.result.scripts).toContain('Zum Inhalt springen');

    const en = await renderPage('/en');
    expect(en.result.locale).toBe('en');
    expect(en.renders).toBe(1);
    expect(en.result.html).toContain('Skip to content');
    expect(en.result.html).toContain('Fox at dawn (prompt)');
    expect(en.result.html).not.toContain('Zum Inhalt springen');
  });

  it('renders a page under /de (contact) and a page without a prefix once each; a failed answer is shown in place', async () => {
    const contact = await renderPage('/de/contact');
    expect(contact.renders).toBe(1);
    expect(contact.result.locale).toBe('de');
    expect(contact.result.html).toContain('Kontakt');
    const missing = await renderPage('/products/no-such-product');
    expect(missing.renders).toBe(1);
    expect(missing.result.locale).toBe('en');
    expect(missing.asked.some((u) => u.startsWith('/api/products/no-such-product/info'))).toBe(true);
    expect(missing.result.html).not.toContain('<!--$!-->');
  });

  it('renders two pages in different languages at the same time, each in its own', async () => {
    const [de, en] = await Promise.all([renderPage('/de/contact'), renderPage('/contact')]);
    expect(de.result.html).toContain('Zum Inhalt springen');
    expect(de.result.html).not.toContain('Skip to content');
    expect(en.result.html).toContain('Skip to content');
    expect(en.result.html).not.toContain('Zum Inhalt springen');
  });

  it('issue 34: renders a licence page on the server, its terms in the HTML, in English and German', async () => {
    const [en, de] = await Promise.all([renderPage('/licences/extended'), renderPage('/de/licences/personal')]);
    expect(en.result.html).toContain('<h1>Extended licence</h1>');
    expect(en.result.html).toContain('Print the work on merchandise and print-on-demand products for sale, in any number.');
    expect(en.result.html).toContain('href="/licences/personal"');
    expect(de.result.html).toContain('<h1>Persönliche Lizenz</h1>');
    expect(de.result.html).toContain('Sie dürfen nicht');
    expect(de.result.html).toContain('Print the work for yourself.');
  });
});
