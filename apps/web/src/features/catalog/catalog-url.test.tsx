import { describe, expect, it } from 'vitest';
import { catalogUrl, pageWindow, parseCatalogUrl } from './catalog-url';

describe('products page URL state', () => {
  it('reads the type from the path or the query', () => {
    expect(parseCatalogUrl('prompt', new URLSearchParams()).type).toBe('prompt');
    expect(parseCatalogUrl(undefined, new URLSearchParams('type=image')).type).toBe('image');
    expect(parseCatalogUrl(undefined, new URLSearchParams('type=bogus')).type).toBeUndefined();
  });
  it('falls back to safe defaults for bad values', () => {
    expect(parseCatalogUrl(undefined, new URLSearchParams('page=-3&sort=drop&category=x'))).toEqual({
      search: '',
      type: undefined,
      categories: [],
      sort: 'id~desc',
      page: 1,
    });
  });
  it('round-trips a full state', () => {
    const state = { search: 'neon city', type: 'image' as const, categories: [2, 3], sort: 'price~asc', page: 3 };
    const url = catalogUrl(state);
    expect(url).toBe('/products?search=neon+city&type=image&category=2&category=3&sort=price%7Easc&page=3');
    expect(parseCatalogUrl(undefined, new URL(url, 'http://x').searchParams)).toEqual(state);
  });
  it('leaves defaults out', () => {
    expect(catalogUrl({ search: '', categories: [], sort: 'id~desc', page: 1 })).toBe('/products');
  });
  it('shows a window of pages with gaps', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
  });
});
