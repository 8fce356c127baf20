import { describe, expect, it } from 'vitest';
import { de } from './de';
import { en } from './en';
import { splitLocale } from './locales';

/** The `{{placeholders}}` and `<tags>` of a text, which a translation must keep. */
const markers = (text: string) => [...text.matchAll(/\{\{\w+\}\}|<\/?\w+>/g)].map((m) => m[0]).sort();

/** Keys whose German is the English word: names, and words German uses as they are. Any other copy is a text left untranslated. */
const SAME_IN_GERMAN = new Set([
  'app.name',
  'nav.shop',
  'footer.support',
  'footer.shop',
  'home.tab_prompts',
  'home.tab_text',
  'products.title',
  'products.type_prompt',
  'products.tags',
  'category.prompts',
  'category.prompts/midjourney',
  'category.prompts/chatgpt',
  'category.prompts/stable-diffusion',
  'dashboard.chat',
  'profile.rate',
  'payment.status',
  'deposit.status_label',
  'orders.format',
  'products.file_format',
  'products.pixels',
  'offers.type_prompt',
  'offers.status',
  'payout.iban',
  'admin.refund_chat',
  'admin.nav_jobs',
  'admin.job_name',
  'admin.status',
  'admin.journal_title',
  'admin.symbol',
  'chat.online',
  'admin.payout_reference',
  'passkeys.title',
]);

describe('dictionaries', () => {
  it('German has every English key, translated, with the same placeholders and tags', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      const german = de[key as keyof typeof en];
      expect(german.trim(), key).not.toBe('');
      expect(markers(german), key).toEqual(markers(text));
    }
  });

  it('issue 18: no German text is the English one copied, except names and words German shares', () => {
    const copied = Object.entries(en)
      .filter(([key, text]) => de[key as keyof typeof en] === text && !SAME_IN_GERMAN.has(key))
      .map(([key]) => key);
    expect(copied).toEqual([]);
  });
});

describe('language prefix of a page path', () => {
  it('splits a known language off, and leaves anything else alone', () => {
    expect(splitLocale('/de/products')).toEqual({ locale: 'de', path: '/products' });
    expect(splitLocale('/de')).toEqual({ locale: 'de', path: '/' });
    expect(splitLocale('/en/packs/x')).toEqual({ locale: 'en', path: '/packs/x' });
    expect(splitLocale('/products')).toEqual({ locale: null, path: '/products' });
    expect(splitLocale('/xx/products')).toEqual({ locale: null, path: '/xx/products' });
    expect(splitLocale('/deutsch')).toEqual({ locale: null, path: '/deutsch' });
    expect(splitLocale('/')).toEqual({ locale: null, path: '/' });
  });
});
