import { waitFor } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { siteKeys } from '../features/site';
import { createQueryClient } from '../lib/query-client';
import { fakeApi, okAnswer } from '../test/fake-api';
import { jsonAnswer, renderRouter } from '../test/render';
import { AppRoutes, loadPages } from './router';

afterEach(() => vi.unstubAllGlobals());

/** The whole app at an address, for a guest, with an empty shop. */
async function openApp(path: string) {
  await loadPages(path);
  fakeApi({
    'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: false } }),
    'GET /api/products/catalog': () => okAnswer([], { links: { next: null }, meta: { current_page: 1, last_page: 1, total: 0 } }),
    'GET /api/categories': () => okAnswer([]),
  });
  const queryClient = createQueryClient();
  queryClient.setQueryData(['auth'], { authenticated: false, user: null });
  queryClient.setQueryData(siteKeys.staticPages, []);
  // The app's own routes, as the browser entry renders them: the page table's title reaches the layout.
  return renderRouter(createMemoryRouter([{ path: '*', element: <AppRoutes /> }], { initialEntries: [path] }), queryClient);
}

describe('tab titles in the browser (issue 18 conformance)', () => {
  it('issue 18 conformance: the shop, its type lists and the contact page have the titles the server writes', async () => {
    const cases: [string, string][] = [
      ['/products', 'Shop — Atelier'],
      ['/products/image', 'Images — Atelier'],
      ['/products?type=prompt', 'Prompts — Atelier'],
      ['/contact', 'Contact us — Atelier'],
    ];
    for (const [path, title] of cases) {
      const view = await openApp(path);
      await waitFor(() => expect(document.title, path).toBe(title));
      view.unmount();
    }
  });
});
