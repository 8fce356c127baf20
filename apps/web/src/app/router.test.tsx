import { afterEach, describe, expect, it } from 'vitest';
import { createClientRouter } from './router';

afterEach(() => window.history.replaceState(null, '', '/'));

describe('language prefix (SPEC §2)', () => {
  it('opens /de/products as the products page, and keeps the prefix on every navigation', async () => {
    window.history.replaceState(null, '', '/de/products?search=boat');
    const router = await createClientRouter();
    expect(router.basename).toBe('/de');
    expect(router.state.location.search).toBe('?search=boat');
    expect(router.state.matches.at(-1)?.route.path).toBe('/products/:param?');
    await router.navigate('/packs/city-lights');
    expect(window.location.pathname).toBe('/de/packs/city-lights');
    expect(router.state.matches.at(-1)?.route.path).toBe('/packs/:slug');
    router.dispose();
  });

  it('opens /de alone as the home page in German', async () => {
    window.history.replaceState(null, '', '/de');
    const router = await createClientRouter();
    expect(router.state.matches.at(-1)?.route.path).toBe('/');
    router.dispose();
  });

  it('takes an unknown prefix for a page that does not exist, and no prefix for none', async () => {
    window.history.replaceState(null, '', '/xx/products');
    const unknown = await createClientRouter();
    expect(unknown.state.matches.at(-1)?.route.path).toBe('*');
    unknown.dispose();
    window.history.replaceState(null, '', '/products');
    const plain = await createClientRouter();
    expect(plain.basename).toBe('/');
    expect(plain.state.matches.at(-1)?.route.path).toBe('/products/:param?');
    plain.dispose();
  });
});
