import { describe, expect, it } from 'vitest';
import { safeRedirect } from './auth-actions';

describe('redirect after sign-in', () => {
  it('follows only same-site paths', () => {
    expect(safeRedirect('/dashboard/contact')).toBe('/dashboard/contact');
    expect(safeRedirect('/products?search=a')).toBe('/products?search=a');
    expect(safeRedirect('//evil.example/x')).toBeNull();
    expect(safeRedirect('https://evil.example')).toBeNull();
    expect(safeRedirect('/\\evil.example')).toBeNull();
    expect(safeRedirect(null)).toBeNull();
  });
});
