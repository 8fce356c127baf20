import { waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserCountry } from '../../lib/visitor-country';
import { fakeApi, okAnswer } from '../../test/fake-api';
import { renderWithApp } from '../../test/render';
import { PhoneField } from './phone-field';

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
