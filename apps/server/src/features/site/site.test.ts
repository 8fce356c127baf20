import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cityDatabase } from '../../../test/mmdb-writer';
import { createTestApp, type TestApp, TestClient, useTestApp } from '../../../test/test-app';
import { getCommerceSettings } from '../ledger';

const t = useTestApp({ seed: true });

describe('site data', () => {
  it('serves the settings of SPEC §3 in the OK envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/settings' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('OK');
    expect(Object.keys(body.payload).sort()).toEqual(
      [
        'copyright',
        'formats',
        'google_tag',
        'internal_currency_name',
        'is_email_verification_enabled',
        'is_reg_enabled',
        'requisites',
        'sizes',
        'support_email',
        // What the start's configuration says about money (issue 17): the test-mode banner, the payout methods.
        'test_mode',
        'payout_methods',
        // How images are generated and what one costs (issue 18 bug 4).
        'image_generation',
        'generation_price',
        // The commission the home page states (issue 18 conformance).
        'commission_percent',
        // The smallest withdrawal, told on the Earnings tab before its form (issue 31).
        'withdrawal_min',
      ].sort(),
    );
    expect(body.payload.internal_currency_name).toBe('Atelier Credits');
  });

  it('issue 18 conformance: the settings carry the commission Atelier keeps, as the back office set it', async () => {
    const body = (await t.app.inject({ url: '/api/settings' })).json();
    expect(body.payload.commission_percent).toBe((await getCommerceSettings(t.app.db)).commission_percent);
    expect(body.payload.withdrawal_min).toBe((await getCommerceSettings(t.app.db)).withdrawal_min);
  });

  it('lists currencies with EUR as the default', async () => {
    const body = (await t.app.inject({ url: '/api/currencies' })).json();
    expect(body.payload.map((c: { code: string }) => c.code)).toEqual(['EUR', 'USD', 'GBP', 'JPY']);
    expect(body.payload[0]).toEqual({ code: 'EUR', symbol: '€', value: 1, default: true, name: 'EUR', decimals: 2 });
    expect(body.payload[3]).toMatchObject({ code: 'JPY', decimals: 0 });
  });

  it('flags the terms, privacy and cookie pages and finds a page by slug or id', async () => {
    const list = (await t.app.inject({ url: '/api/static-pages' })).json().payload;
    const terms = list.find((p: { slug: string }) => p.slug === 'terms');
    expect(terms.is_terms).toBe(1);
    expect(list.find((p: { slug: string }) => p.slug === 'privacy').is_privacy).toBe(1);
    expect(list.find((p: { slug: string }) => p.slug === 'cookie-policy').is_cookie).toBe(1);
    const bySlug = (await t.app.inject({ url: '/api/static-pages/terms' })).json().payload;
    const byId = (await t.app.inject({ url: `/api/static-pages/${terms.id}` })).json().payload;
    expect(byId.title).toBe(bySlug.title);
    expect(bySlug.content).toContain('Terms of Service');
  });

  it('never returns script from a stored static page', async () => {
    const page = (await t.app.inject({ url: '/api/static-pages/terms' })).json().payload;
    expect(page.content).not.toMatch(/<script|onclick|alert\(/i);
    expect(page.content).toContain('Refunds are handled through support.');
  });

  it('answers 404 in the envelope for an unknown page', async () => {
    const res = await t.app.inject({ url: '/api/static-pages/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'ERROR', message: 'This page does not exist.' });
  });

  it('serves words, German falling back to English key by key', async () => {
    const enWords = (await t.app.inject({ url: '/api/localization/en/words' })).json().payload;
    const deWords = (await t.app.inject({ url: '/api/localization/de/words' })).json().payload;
    expect(enWords['nav.buy']).toBe('Buy');
    expect(deWords['nav.buy']).toBe('Kaufen');
    expect(deWords['nav.shop']).toBe('Katalog');
    expect(Object.keys(deWords).length).toBe(Object.keys(enWords).length);
    expect((await t.app.inject({ url: '/api/localization/xx/words' })).statusCode).toBe(404);
  });

  it('lists social links whose images are public files', async () => {
    const links = (await t.app.inject({ url: '/api/social-links' })).json().payload;
    expect(links.length).toBeGreaterThan(0);
    const icon = await t.app.inject({ url: `/storage/${links[0].image}` });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toContain('max-age=31536000');
  });

  it('lists the ISO 3166 countries with their numeric id', async () => {
    const res = await t.app.inject({ url: '/api/countries' });
    const list = res.json().payload as { id: number; code: string; title: string }[];
    expect(list).toHaveLength(249);
    expect(list.find((c) => c.code === 'DE')).toEqual({ id: 276, code: 'DE', title: 'Germany' });
    expect(list.find((c) => c.code === 'PT')?.id).toBe(620);
    expect(res.headers.etag).toBeDefined();
  });
});

describe('malformed input', () => {
  it('refuses a NUL character in a static page key with 422, and answers 404 for an id beyond the range of ids', async () => {
    const nul = await t.app.inject({ url: '/api/static-pages/%00' });
    expect(nul.statusCode).toBe(422);
    expect(nul.json()).toEqual({
      status: 'ERROR',
      message: 'The page may not contain a NUL character.',
      code: 'field.nul?field=page',
      errors: { id: ['The page may not contain a NUL character.'] },
      codes: { id: ['field.nul?field=page'] },
    });
    const huge = await t.app.inject({ url: '/api/static-pages/9223372036854775808' });
    expect(huge.statusCode).toBe(404);
    expect(huge.json()).toEqual({ status: 'ERROR', message: 'This page does not exist.' });
  });

  it('refuses a NUL character in the contact form with a message per field', async () => {
    const res = await new TestClient(t.app).post('/api/contact', { name: 'Ana\u0000', email: 'ana@example.com', message: 'Hello there, \u0000 a question.' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      name: ['The name may not contain a NUL character.'],
      message: ['The message may not contain a NUL character.'],
    });
  });

  it('refuses a NUL character anywhere in an API request, even where no schema reads it', async () => {
    const res = await t.app.inject({ url: '/api/settings?utm_source=a%00b' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'ERROR',
      message: 'The utm_source may not contain a NUL character.',
      code: 'field.nul?field=utm_source',
      errors: { utm_source: ['The utm_source may not contain a NUL character.'] },
      codes: { utm_source: ['field.nul?field=utm_source'] },
    });
  });
});

describe("the visitor's country (issue 18: the phone field's default)", () => {
  const ask = (app: TestApp['app'], headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: '/api/visitor/country', headers, remoteAddress: '127.0.3.9' });

  it('comes from the Accept-Language region in order of preference, and is never a fixed country', async () => {
    const austrian = await ask(t.app, { 'accept-language': 'de-AT,de;q=0.9,en;q=0.8' });
    expect(austrian.statusCode).toBe(200);
    expect(austrian.headers['cache-control']).toBe('private, no-store');
    expect(austrian.json().payload).toEqual({ country: 'AT', source: 'language' });
    expect((await ask(t.app, { 'accept-language': 'fr;q=0.9,en-GB;q=0.3,pt-BR' })).json().payload).toEqual({ country: 'BR', source: 'language' });
    // No region, an unknown one, or no header: unknown, so the browser's time zone decides.
    for (const header of ['de', 'en-ZZ', '*'])
      expect((await ask(t.app, { 'accept-language': header })).json().payload).toEqual({ country: null, source: null });
    expect((await ask(t.app, {})).json().payload).toEqual({ country: null, source: null });
  });

  it('comes from the address first when GEOIP_DB holds it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atelier-geoip-'));
    await writeFile(path.join(dir, 'city.mmdb'), cityDatabase('127.0.0.0/16', 'Berlin', 'Germany', 'DE'));
    const geo = await createTestApp({ env: { GEOIP_DB: path.join(dir, 'city.mmdb') } });
    try {
      expect((await ask(geo.app, { 'accept-language': 'en-US' })).json().payload).toEqual({ country: 'DE', source: 'address' });
      const elsewhere = await geo.app.inject({
        method: 'GET',
        url: '/api/visitor/country',
        headers: { 'accept-language': 'en-US' },
        remoteAddress: '10.1.2.3',
      });
      expect(elsewhere.json().payload).toEqual({ country: 'US', source: 'language' });
    } finally {
      await geo.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
