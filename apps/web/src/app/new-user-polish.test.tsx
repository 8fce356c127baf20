import type { Product } from '@atelier/shared';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authKey, useLogout } from '../features/auth';
import { LOGOUT_MARK_MS } from '../features/auth/api/logout';
import { truthfulTagline } from '../features/catalog/components/product-card';
import { i18n } from '../lib/i18n';
import { PageTitleProvider, usePageTitle } from '../lib/page-title';
import { createQueryClient } from '../lib/query-client';
import { jsonAnswer, renderRouter } from '../test/render';
import { RequireAuth } from './guards';
import { pageBody } from './routes/static-page';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function LogoutButton() {
  const logout = useLogout();
  return (
    <button type="button" onClick={() => logout.mutate()}>
      Log Out
    </button>
  );
}

describe('log out (issue 12, SPEC §4)', () => {
  it('from a protected dashboard page goes home, not to login with a redirect back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal('fetch', async () => jsonAnswer(200, { status: 'OK' }));
    const queryClient = createQueryClient();
    queryClient.setQueryData(authKey, { authenticated: true, user: { id: 1, name: 'Ana' } });
    const router = createMemoryRouter(
      [
        // Lazily loaded, as every page of the app is.
        {
          path: '/',
          lazy: async () => {
            await new Promise((resolve) => setTimeout(resolve, 30));
            return { Component: () => <h1>Home page</h1> };
          },
        },
        { path: '/login', element: <h1>Login page</h1> },
        {
          element: <RequireAuth />,
          children: [
            { path: '/dashboard', element: <LogoutButton />, children: [{ path: 'orders', element: <Outlet /> }] },
            { path: '/dashboard-other', element: <LogoutButton /> },
          ],
        },
      ],
      { initialEntries: ['/dashboard'] },
    );
    renderRouter(router, queryClient);
    fireEvent.click(screen.getByRole('button', { name: 'Log Out' }));
    expect(await screen.findByText('Home page')).toBeTruthy();
    expect(router.state.location.pathname + router.state.location.search).toBe('/');
    expect(screen.queryByText('Login page')).toBeNull();

    // Later, a guest who opens a protected page goes to login with the way back, as before.
    await act(() => vi.advanceTimersByTimeAsync(LOGOUT_MARK_MS));
    await act(() => router.navigate('/dashboard'));
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(router.state.location.search).toBe('?redirect=%2Fdashboard');
  });
});

function Titled({ title }: { title?: string }) {
  usePageTitle(title);
  return null;
}

describe('tab titles (issue 12)', () => {
  it("a page's own title wins over the page table's, also on the first render, and goes when the page goes", async () => {
    const router = createMemoryRouter(
      [
        {
          element: (
            <PageTitleProvider fallback="Shop">
              <Outlet />
            </PageTitleProvider>
          ),
          children: [
            { path: '/products/aurora', element: <Titled title="Aurora Over Fjords" /> },
            { path: '/products', element: <Titled /> },
          ],
        },
      ],
      { initialEntries: ['/products/aurora'] },
    );
    renderRouter(router);
    await waitFor(() => expect(document.title).toBe('Aurora Over Fjords — Atelier'));
    await act(() => router.navigate('/products'));
    await waitFor(() => expect(document.title).toBe('Shop — Atelier'));
  });
});

describe('static pages (issue 12)', () => {
  it('keep one h1: a leading heading that repeats the title is dropped, other h1s become h2', () => {
    expect(pageBody('Privacy Policy', '<h2>Privacy Policy</h2><p>We store little.</p>')).toBe('<p>We store little.</p>');
    expect(pageBody('Terms', '<h1 class="x">Terms</h1><h3>Payments</h3>')).toBe('<h3>Payments</h3>');
    expect(pageBody('About', '<h2>Our story</h2><h1>Team</h1>')).toBe('<h2>Our story</h2><h2>Team</h2>');
  });
});

describe('card taglines (issue 12)', () => {
  const t = i18n.t.bind(i18n) as (key: string, opts?: Record<string, unknown>) => string;
  it('keep the random SPEC taglines for images only, and say what is true of prompts, texts and packs', () => {
    const image = truthfulTagline({ id: 1, product_type: 'image' }, 7, t);
    expect(['Personal & commercial use', 'PNG, 3840x2160', '4K JPG + usage rights']).toContain(image);
    expect(truthfulTagline({ id: 2, product_type: 'prompt' }, 7, t)).toBe('Prompt · works with any image model');
    expect(truthfulTagline({ id: 3, product_type: 'doc' }, 7, t)).toBe('Text · the full document to download');
    expect(truthfulTagline({ id: 3, product_type: 'doc', file_type: 'PDF' }, 7, t)).toBe('PDF · the full document to download');
    const items = [{}, {}, {}] as Product[];
    expect(truthfulTagline({ id: 4, product_type: 'pack', items }, 7, t)).toBe('Pack · 3 works');
    expect(truthfulTagline({ id: 4, product_type: 'pack', items: items.slice(0, 1) }, 7, t)).toBe('Pack · 1 work');
    for (let id = 1; id < 40; id++) {
      for (const type of ['prompt', 'doc'] as const) expect(truthfulTagline({ id, product_type: type }, id * 13, t)).not.toMatch(/PNG|JPG|4K/);
    }
  });

  it('the result count says "1 result", not "1 results"', () => {
    expect(i18n.t('products.results', { count: 1 })).toBe('1 result');
    expect(i18n.t('products.results', { count: 2 })).toBe('2 results');
    expect(i18n.t('products.results_for', { count: 1, search: 'boat' })).toBe('1 result for “boat”');
  });
});
