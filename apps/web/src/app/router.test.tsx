import { act, render } from '@testing-library/react';
import { useEffect } from 'react';
import { BrowserRouter, useNavigate } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { basenameOf, loadPages } from './router';

afterEach(() => window.history.replaceState(null, '', '/'));

const leafPath = (matches: Awaited<ReturnType<typeof loadPages>>) => matches?.at(-1)?.route.path;

describe('language prefix (SPEC §2)', () => {
  it('opens /de/products as the products page, and keeps the prefix on every navigation', async () => {
    window.history.replaceState(null, '', '/de/products?search=boat');
    const basename = basenameOf(window.location.pathname);
    expect(basename).toBe('/de');
    expect(leafPath(await loadPages(window.location.pathname, basename))).toBe('/products/:param?');
    function GoToPack() {
      const navigate = useNavigate();
      useEffect(() => {
        void navigate('/packs/city-lights');
      }, [navigate]);
      return null;
    }
    await act(async () => {
      render(
        <BrowserRouter basename={basename}>
          <GoToPack />
        </BrowserRouter>,
      );
    });
    expect(window.location.pathname).toBe('/de/packs/city-lights');
    expect(leafPath(await loadPages(window.location.pathname, basename))).toBe('/packs/:slug');
  });

  it('opens /de alone as the home page in German', async () => {
    expect(basenameOf('/de')).toBe('/de');
    expect(leafPath(await loadPages('/de', '/de'))).toBe('/');
  });

  it('takes an unknown prefix for a page that does not exist, and no prefix for none', async () => {
    expect(basenameOf('/xx/products')).toBeUndefined();
    expect(leafPath(await loadPages('/xx/products', undefined))).toBe('*');
    expect(basenameOf('/products')).toBeUndefined();
    expect(leafPath(await loadPages('/products', undefined))).toBe('/products/:param?');
  });
});
