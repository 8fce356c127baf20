import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { siteKeys } from '../features/site';
import { createQueryClient } from '../lib/query-client';
import { fakeApi } from '../test/fake-api';
import { jsonAnswer, renderRouter } from '../test/render';
import { loadPages, routes } from './router';

afterEach(() => vi.unstubAllGlobals());

/** The whole app at an address, for a guest; every item the page asks for is missing. */
async function openApp(path: string) {
  await loadPages(path);
  fakeApi({ 'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: false } }) });
  const queryClient = createQueryClient();
  queryClient.setQueryData(['auth'], { authenticated: false, user: null });
  queryClient.setQueryData(siteKeys.staticPages, []);
  return renderRouter(createMemoryRouter(routes, { initialEntries: [path] }), queryClient);
}

describe('not-found pages in the app (issue 18 bug 9)', () => {
  it('issue 18 bug 9: an unknown address shows the not-found page where it is, with no redirect to /404', async () => {
    const { router } = await openApp('/this/does/not/exist');
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/this/does/not/exist');
    await waitFor(() => expect(document.title).toBe('Page not found — Atelier'));
  });

  it('issue 18 bug 9: a missing product, pack or profile names what is missing in the tab title', async () => {
    const cases: [string, string][] = [
      ['/products/no-such-product', 'Product not found — Atelier'],
      ['/packs/no-such-pack', 'Pack not found — Atelier'],
      ['/profile/nobody-here', 'Profile not found — Atelier'],
    ];
    for (const [path, title] of cases) {
      const view = await openApp(path);
      await waitFor(() => expect(document.title, path).toBe(title));
      view.unmount();
    }
  });
});
