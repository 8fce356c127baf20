import { de } from '@atelier/shared/i18n/de';
import { en } from '@atelier/shared/i18n/en';
import { describe, expect, it } from 'vitest';
import { I18n } from '../../lib/i18n-runtime';
import { staticPageTitle } from './static-page-title';

describe("a static page's title (issue 18: German is complete)", () => {
  const terms = { slug: 'terms', title: 'Terms of Service' };
  const added = { slug: 'shipping', title: 'Shipping' };

  it("shows the stored title in English, the dictionary's in German, and the stored one for a page the dictionary lacks", () => {
    const i18n = new I18n({ lng: 'de', fallbackLng: 'en', resources: { en, de } });
    expect(staticPageTitle(i18n.t, 'de', terms)).toBe('Nutzungsbedingungen');
    expect(staticPageTitle(i18n.t, 'de', { slug: 'cookie-policy', title: 'Cookie Policy' })).toBe('Cookie-Richtlinie');
    expect(staticPageTitle(i18n.t, 'de', added)).toBe('Shipping');
    // Staff renamed the English page: English shows their title, not the dictionary's.
    expect(staticPageTitle(i18n.t, 'en', { slug: 'terms', title: 'Terms and Conditions' })).toBe('Terms and Conditions');
  });
});
