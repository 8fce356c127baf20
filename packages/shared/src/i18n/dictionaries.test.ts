import { describe, expect, it } from 'vitest';
import { de } from './de';
import { en } from './en';
import { splitLocale } from './locales';

/** The `{{placeholders}}` and `<tags>` of a text, which a translation must keep. */
const markers = (text: string) => [...text.matchAll(/\{\{\w+\}\}|<\/?\w+>/g)].map((m) => m[0]).sort();

describe('dictionaries', () => {
  it('German has every English key, translated, with the same placeholders and tags', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      const german = de[key as keyof typeof en];
      expect(german.trim(), key).not.toBe('');
      expect(markers(german), key).toEqual(markers(text));
    }
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
