// @vitest-environment node
import { en } from '@atelier/shared/i18n/en';
import { describe, expect, it } from 'vitest';
import { render } from './entry-server';
import { contractChecked } from './test/fake-api';
import { aProductDetails, aProfile, siteSettings } from './test/fixtures';

/** The product the fake API knows; everything else it answers as the real one would for a guest. */
const product = aProductDetails({
  slug: 'harbour-at-dawn',
  title: 'Harbour at Dawn',
  description: 'Fishing boats in the first light.',
  author: 'Marta Lopes',
  authorNickname: 'marta',
  imageUrl: '/storage/products/harbour-at-dawn/preview.webp',
  tags: ['sea'],
  price: 12.5,
  created_at: 1_790_000_000,
  sales_count: 3,
  file: { format: 'PNG', bytes: 2_400_000, width: 2400, height: 1600 },
});

function fakeApi(signedIn = false) {
  const asked: string[] = [];
  const answers: Record<string, unknown> = {
    '/api/is-auth': { status: 'OK', authenticated: signedIn },
    '/api/user/profile': { status: 'OK', payload: aProfile({ id: 1, name: 'Marta', surname: 'Lopes', nickname: 'marta', email: 'marta@example.com' }) },
    '/api/settings': { status: 'OK', payload: siteSettings({ support_email: 'help@example.com' }) },
    '/api/currencies': {
      status: 'OK',
      payload: [
        { code: 'EUR', symbol: '€', value: 1, default: true, name: 'EUR', decimals: 2 },
        { code: 'USD', symbol: '$', value: 1.08, default: false, name: 'USD', decimals: 2 },
      ],
    },
    '/api/static-pages': { status: 'OK', payload: [] },
    '/api/social-links': { status: 'OK', payload: [] },
    '/api/categories': { status: 'OK', payload: [] },
    '/api/products/harbour-at-dawn/info': { status: 'OK', payload: product },
  };
  const fetch = contractChecked(async (url: string) => {
    asked.push(url);
    const body = answers[new URL(url, 'http://x').pathname];
    return body
      ? new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
      : new Response(JSON.stringify({ status: 'ERROR', message: 'Not here.' }), { status: 404 });
  });
  return { asked, fetch };
}

describe('server rendering', () => {
  it('hole 1: a start in test mode shows the banner above the header in the rendered HTML, in English and German', async () => {
    const api = fakeApi();
    const settings = { status: 'OK', payload: siteSettings({ test_mode: true, payout_methods: ['sepa'] }) };
    const fetch = async (url: string) =>
      new URL(url, 'http://x').pathname === '/api/settings'
        ? new Response(JSON.stringify(settings), { status: 200, headers: { 'content-type': 'application/json' } })
        : api.fetch(url);
    const { html } = (await render({ url: '/products/harbour-at-dawn', cookies: {}, fetch }))!;
    expect(html).toContain('<p class="test-mode-banner" role="note"><strong>Test mode: no real money</strong>');
    expect(html.indexOf('test-mode-banner')).toBeLessThan(html.indexOf('<header'));
    const plain = (await render({ url: '/products/harbour-at-dawn', cookies: {}, fetch: fakeApi().fetch }))!;
    expect(plain.html).not.toContain('test-mode-banner');
    const { de } = await import('@atelier/shared/i18n/de');
    expect(de['app.test_mode']).toBe('Testmodus: kein echtes Geld');
  });

  it('hole 13: /page/. and other dot segments render without throwing, as the browser resolves the address', async () => {
    for (const url of ['/page/.', '/page/./', '/products/.', '/page/..']) {
      const result = await render({ url, cookies: {}, fetch: fakeApi().fetch });
      expect(result, url).not.toBeNull();
      expect(result!.html, url).toContain('<footer');
    }
  });

  it('renders a product page with its answers, chrome and footer, and hands the answers over', async () => {
    const api = fakeApi();
    const result = await render({ url: '/products/harbour-at-dawn', cookies: {}, fetch: api.fetch });
    expect(result).not.toBeNull();
    const { html, scripts } = result!;
    expect(html).toMatch(/<h1[^>]*>Harbour at Dawn<\/h1>/);
    expect(html).toContain('src="/storage/products/harbour-at-dawn/preview.webp"');
    expect(html).toContain('<span class="price-symbol">€</span><span>12.50</span>');
    expect(html).toContain('<footer');
    // Issue 31 item 7: the trust signals are in the server's HTML: sales and the file a buyer gets.
    expect(html).toMatch(/data-testid="sales-count">3 sold</);
    expect(html).toContain('<dt>Format</dt><dd>PNG</dd>');
    expect(html).toContain('<dt>Pixel size</dt><dd>2,400 × 1,600 px</dd>');
    expect(html).toContain('<dt>File size</dt><dd>2.4 MB</dd>');
    expect(html).not.toContain('<!--$!-->');
    expect(result!.background).toBe('default');
    // Asked in the visitor's currency (the default, with no cookie), and each call once.
    expect(api.asked).toContain('/api/products/harbour-at-dawn/info?currency=EUR');
    expect(new Set(api.asked).size).toBe(api.asked.length);
    const state = JSON.parse(/<script type="application\/json" id="atelier-ssr">([\s\S]*)<\/script>/.exec(scripts)![1]!);
    const keys = state.queries.queries.map((q: { queryKey: unknown[] }) => JSON.stringify(q.queryKey));
    expect(keys).toContain(JSON.stringify(['catalog', 'product', 'harbour-at-dawn', 'EUR']));
    expect(keys).toContain(JSON.stringify(['auth']));
    expect(typeof state.seed).toBe('number');
    // The words the page shows go along (the browser bundles no dictionary), and only those.
    expect(state.words['nav.buy']).toBe('Buy');
    expect(state.words['footer.support']).toBe('Support');
    expect(state.words['admin.title']).toBeUndefined();
    expect(Object.keys(state.words).length).toBeLessThan(Object.keys(en).length / 4);
  });

  it('prices the page in the currency of the cookie', async () => {
    const api = fakeApi();
    await render({ url: '/products/harbour-at-dawn', cookies: { selectedCurrency: 'USD' }, fetch: api.fetch });
    expect(api.asked).toContain('/api/products/harbour-at-dawn/info?currency=USD');
  });

  it("shows a signed-in visitor's header, and leaves an unknown product for the browser to report", async () => {
    const signedIn = await render({ url: '/', cookies: {}, fetch: fakeApi(true).fetch });
    expect(signedIn!.html).toContain('Step Inside');
    expect(signedIn!.background).toBe('home');
    expect(signedIn!.html).toContain('aria-label="Cart"');
    const guest = await render({ url: '/', cookies: {}, fetch: fakeApi(false).fetch });
    expect(guest!.html).not.toContain('aria-label="Cart"');
    const missing = await render({ url: '/products/no-such-thing', cookies: {}, fetch: fakeApi().fetch });
    // A failed query is not handed over (the browser asks again, from the answers in the page), so
    // the server shows the page loading around the header and footer.
    expect(missing!.html).not.toContain('Harbour at Dawn');
    expect(missing!.html).toContain('role="status"');
    expect(missing!.html).toContain('<footer');
  });

  it('escapes user text in the handed-over answers', async () => {
    const api = fakeApi();
    product.title = 'Evil </script><script>alert(1)</script>';
    try {
      const result = await render({ url: '/products/harbour-at-dawn', cookies: {}, fetch: api.fetch });
      expect(result!.scripts).not.toContain('<script>alert(1)');
      expect(result!.html).not.toContain('<script>alert(1)');
    } finally {
      product.title = 'Harbour at Dawn';
    }
  });

  it('leaves a page under a language prefix to the browser, which renders it in that language', async () => {
    const api = fakeApi();
    expect(await render({ url: '/de/products', cookies: {}, fetch: api.fetch })).toBeNull();
    expect(api.asked).toEqual([]);
  });
});
