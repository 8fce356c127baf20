import { describe, expect, it } from 'vitest';
import { matchPage, pageAccess } from './pages';

describe('matchPage', () => {
  it('takes the language prefix off once and decodes params as the router does', () => {
    expect(matchPage('/de/products/caf%C3%A9')).toMatchObject({ name: 'products', params: { param: 'café' }, locale: 'de' });
    expect(matchPage('/products')).toMatchObject({ name: 'products', params: {}, locale: null });
    expect(matchPage('/de')).toMatchObject({ name: 'home', locale: 'de' });
    // Not valid percent-encoding: kept as it is, as React Router keeps it.
    expect(matchPage('/packs/%E0%A4%A')?.params).toEqual({ slug: '%E0%A4%A' });
  });

  it('prefers a static segment, the index page of a parent, and knows no page for anything else', () => {
    expect(matchPage('/email/verify/success')?.name).toBe('verify-email-success');
    expect(matchPage('/email/verify')?.name).toBe('verify-email');
    expect(matchPage('/dashboard/')?.name).toBe('dashboard-projects');
    expect(matchPage('/dashboard/contact')?.name).toBe('dashboard-contact');
    expect(matchPage('/products//x')).toBeNull();
    expect(matchPage('/xx/products')).toBeNull();
  });

  it('gives a nested page the guard of its parent', () => {
    expect(pageAccess('dashboard-orders')).toBe('signed-in');
    expect(pageAccess('login')).toBe('guest');
    expect(pageAccess('pack')).toBe('public');
  });
});
