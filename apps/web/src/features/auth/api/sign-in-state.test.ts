import { describe, expect, it } from 'vitest';
import { safeRedirect } from './sign-in-state';

describe('redirect after sign-in', () => {
  it('follows a path on this site, with its query and hash', () => {
    expect(safeRedirect('/x')).toBe('/x');
    expect(safeRedirect('/dashboard/contact')).toBe('/dashboard/contact');
    expect(safeRedirect('/products?search=a')).toBe('/products?search=a');
    expect(safeRedirect('/products?search=a%20b&sort=new#top')).toBe('/products?search=a%20b&sort=new#top');
    expect(safeRedirect('/de/products')).toBe('/de/products');
  });

  it('refuses another host, however it is spelled', () => {
    for (const target of [
      '//evil',
      '//evil.example/x',
      '/\\evil',
      '/\\/evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n/evil.example',
      '%2F%2Fevil',
      '/%2F/evil.example',
      '/%2f%2fevil',
      '/%5Cevil',
      '/%252F%252Fevil',
      '/%09/evil.example',
      '/%0A/evil.example',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      '/javascript:alert(1)'.slice(1),
      'https://evil',
      'https:/evil',
      'data:text/html,x',
      ' /x',
      '/x ',
      '/x\u0000',
      '/\u200b/evil.example',
      'x',
      '',
    ]) {
      expect(safeRedirect(target), JSON.stringify(target)).toBeNull();
    }
  });

  it('refuses broken percent-escapes and a missing value', () => {
    expect(safeRedirect('/%E0%A4%A')).toBeNull();
    expect(safeRedirect(null)).toBeNull();
    expect(safeRedirect(undefined)).toBeNull();
  });
});
