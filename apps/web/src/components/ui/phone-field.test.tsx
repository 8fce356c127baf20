import { de } from '@atelier/shared/i18n/de';
import { waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n';
import { browserCountry } from '../../lib/visitor-country';
import { fakeApi, okAnswer } from '../../test/fake-api';
import { renderWithApp } from '../../test/render';
import { countriesIn, PhoneField } from './phone-field';

afterEach(() => vi.unstubAllGlobals());

function Phone() {
  const [value, setValue] = useState('');
  return <PhoneField id="phone" label="Phone" value={value} onChange={setValue} />;
}

describe("the phone field's first country (issue 18: the visitor's, never a fixed Portugal)", () => {
  it('starts with the country the server names for this visitor (address or Accept-Language)', async () => {
    fakeApi({ 'GET /api/visitor/country': () => okAnswer({ country: 'DE', source: 'address' }) });
    renderWithApp(<Phone />);
    await waitFor(() => expect(document.querySelector('button[data-country]')?.getAttribute('data-country')).toBe('de'));
  });

  it("falls back to the browser's time zone, then its language region, when the server knows nothing", async () => {
    expect(browserCountry('Europe/Vienna', ['en-US'])).toBe('at');
    expect(browserCountry('Etc/UTC', ['fr', 'en-GB'])).toBe('gb');
    expect(browserCountry(undefined, ['de'])).toBeNull();
    fakeApi({});
    vi.stubGlobal('navigator', { ...navigator, languages: ['fr-CA', 'fr'], language: 'fr-CA' });
    renderWithApp(<Phone />);
    // jsdom's time zone is UTC (no country), so the language region decides: Canada.
    await waitFor(() => expect(document.querySelector('button[data-country]')?.getAttribute('data-country')).toBe('ca'));
  });
});

describe('the phone field in German (issue 18: German is complete)', () => {
  afterEach(() => i18n.changeLanguage('en'));

  it("names the countries and its country button in the page language, in that language's order", async () => {
    const names = countriesIn('de').map((c) => c[0]);
    expect(names).toContain('Deutschland');
    expect(names).not.toContain('Germany');
    expect(names.indexOf('Österreich')).toBeLessThan(names.indexOf('Pakistan'));
    expect(countriesIn('en').map((c) => c[0])).toContain('Germany');

    i18n.addResourceBundle('de', de);
    await i18n.changeLanguage('de');
    fakeApi({ 'GET /api/visitor/country': () => okAnswer({ country: 'DE', source: 'address' }) });
    renderWithApp(<Phone />);
    await waitFor(() => expect(document.querySelector('button[data-country]')?.getAttribute('title')).toBe('Deutschland'));
    expect(document.querySelector('button[data-country]')?.getAttribute('aria-label')).toBe('Ländervorwahl');
  });
});
