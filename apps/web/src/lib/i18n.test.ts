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
});
