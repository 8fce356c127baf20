import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n, loadServerWords } from './i18n';

function words(status: number, body: unknown) {
  return async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(async () => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
  await i18n.changeLanguage('en');
});

describe('the language of a page', () => {
  it('is German under /de, from the bundled dictionary even when the server has no words', async () => {
    vi.stubGlobal('fetch', words(404, { status: 'ERROR', message: 'No translations.' }));
    window.history.replaceState(null, '', '/de/products');
    await loadServerWords();
    expect(i18n.language).toBe('de');
    expect(i18n.t('nav.buy')).toBe('Kaufen');
    expect(i18n.t('products.page_of', { page: 2, pages: 5 })).toBe('Seite 2 von 5');
    expect(document.documentElement.lang).toBe('de');
  });

  it("takes the server's words over the bundled ones, key by key", async () => {
    vi.stubGlobal('fetch', words(200, { status: 'OK', payload: { 'nav.buy': 'Jetzt kaufen' } }));
    window.history.replaceState(null, '', '/de');
    await loadServerWords();
    expect(i18n.t('nav.buy')).toBe('Jetzt kaufen');
    expect(i18n.t('nav.sell')).toBe('Verkaufen');
  });

  it('stays English for a language neither the app nor the server knows', async () => {
    vi.stubGlobal('fetch', words(404, { status: 'ERROR', message: 'No translations.' }));
    await loadServerWords('xx');
    expect(i18n.language).toBe('en');
    expect(i18n.t('nav.buy')).toBe('Buy');
  });
  it('takes English from the server, or from the bundled copy when the server does not answer', async () => {
    // A fresh instance, without the English the test setup gives the shared one.
    vi.resetModules();
    const first = await import('./i18n');
    vi.stubGlobal('fetch', words(200, { status: 'OK', payload: { 'nav.buy': 'Buy it' } }));
    await first.loadServerWords('en');
    expect(first.i18n.t('nav.buy')).toBe('Buy it');
    expect(first.i18n.t('nav.sell')).toBe('nav.sell');
    vi.resetModules();
    const offline = await import('./i18n');
    vi.stubGlobal('fetch', words(503, { status: 'ERROR', message: 'Down.' }));
    await offline.loadServerWords('en');
    expect(offline.i18n.t('nav.sell')).toBe('Sell');
  });

  it('loads English for a language neither knows when the page has no words yet', async () => {
    vi.resetModules();
    const fresh = await import('./i18n');
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) =>
      String(input instanceof Request ? input.url : input).includes('/localization/en/')
        ? words(200, { status: 'OK', payload: { 'nav.buy': 'Buy' } })()
        : words(404, { status: 'ERROR', message: 'No translations.' })(),
    );
    await fresh.loadServerWords('xx');
    expect(fresh.i18n.language).toBe('en');
    expect(fresh.i18n.t('nav.buy')).toBe('Buy');
  });
});
