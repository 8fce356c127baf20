import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderWithApp } from '../../test/render';
import { addressIn, LanguageSelect } from './language-select';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.removeItem('language');
  window.history.replaceState(null, '', '/');
});

describe('the language switcher (issue 18)', () => {
  it('names the same page in the other language', () => {
    const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });
    expect(addressIn('de', at('/products', '?page=2'))).toBe('/de/products?page=2');
    expect(addressIn('en', at('/de/products', '?page=2', '#top'))).toBe('/products?page=2#top');
    expect(addressIn('de', at('/'))).toBe('/de');
    expect(addressIn('en', at('/de'))).toBe('/');
    expect(addressIn('de', at('/de/dashboard'))).toBe('/de/dashboard');
  });

  it('opens the page in German and keeps the choice', () => {
    fakeApi({});
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/products', search: '?search=owl', hash: '', assign });
    renderWithApp(<LanguageSelect />);
    const select = screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['English', 'Deutsch']);
    expect(select.value).toBe('en');
    fireEvent.change(select, { target: { value: 'de' } });
    expect(localStorage.getItem('language')).toBe('de');
    expect(assign).toHaveBeenCalledWith('/de/products?search=owl');
  });
});
