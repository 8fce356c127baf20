import type { ProductDetails } from '@atelier/shared';
import { screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { siteKeys } from '../../features/site';
import { createQueryClient } from '../../lib/query-client';
import { contractChecked } from '../../test/fake-api';
import { aProduct } from '../../test/fixtures';
import { renderRouter } from '../../test/render';
import { Component as PackPage } from './pack';
import { Component as ProductsPage, prepare } from './products';

const item = aProduct({
  id: 3,
  slug: 'harbour-at-dawn',
  title: 'Harbour at Dawn',
  description: 'Boats.',
  author: 'Marta Lopes',
  authorNickname: 'marta',
  price: 12.5,
  created_at: 1_790_000_000,
});
const pack: ProductDetails = {
  ...item,
  sales_count: 0,
  file: null,
  id: 12,
  slug: 'night-lights-collection',
  title: 'Night Lights Collection',
  product_type: 'pack',
  price: 30,
  items: [item],
};

afterEach(() => vi.unstubAllGlobals());

describe('a pack opened as a product', () => {
  it('moves to /packs/{slug} and shows the pack there without asking again', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      contractChecked(async (url: string) => {
        asked.push(url);
        const found = new URL(url, 'http://x').pathname === '/api/products/12/info';
        return new Response(JSON.stringify(found ? { status: 'OK', payload: pack } : { status: 'ERROR', message: 'Not here.' }), {
          status: found ? 200 : 404,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    // The page's part loads before the first render, as the router loads it.
    await prepare({ param: '12' });
    const queryClient = createQueryClient();
    queryClient.setQueryData(siteKeys.currencies, [{ code: 'EUR', symbol: '€', value: 1, default: true, name: 'EUR' }]);
    const router = createMemoryRouter(
      [
        { path: '/products/:param?', Component: ProductsPage },
        { path: '/packs/:slug', Component: PackPage },
      ],
      { initialEntries: ['/products/12'] },
    );
    renderRouter(router, queryClient);
    expect(await screen.findByRole('heading', { level: 1, name: 'Night Lights Collection' })).toBeTruthy();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/packs/night-lights-collection'));
    // Replaced, not pushed: Back does not return to the product address that moves on again.
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.getByText('Harbour at Dawn')).toBeTruthy();
    // The pack's details were asked once, under the product address, and not again under /packs.
    expect(asked.filter((url) => url.startsWith('/api/products') || url.startsWith('/api/packs'))).toEqual(['/api/products/12/info?currency=EUR']);
  });
});

describe('a search with more matches than the server counts', () => {
  it('shows the estimated total rounded, as "About"', async () => {
    vi.stubGlobal(
      'fetch',
      contractChecked(async (url: string) => {
        const path = new URL(url, 'http://x').pathname;
        const body =
          path === '/api/products/catalog'
            ? { status: 'OK', payload: [item], meta: { total: 153_643, pages: 167, page: 1, limit: 6, total_estimated: true } }
            : path === '/api/is-auth'
              ? { status: 'OK', payload: { authenticated: false } }
              : { status: 'OK', payload: [] };
        return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const queryClient = createQueryClient();
    queryClient.setQueryData(siteKeys.currencies, [{ code: 'EUR', symbol: '€', value: 1, default: true, name: 'EUR' }]);
    await prepare({});
    const router = createMemoryRouter([{ path: '/products/:param?', Component: ProductsPage }], { initialEntries: ['/products?search=harbour'] });
    renderRouter(router, queryClient);
    await vi.waitFor(() => expect(screen.getByTestId('result-count').textContent).toBe('About 150,000 results for “harbour”'));
    expect(screen.getByText('Harbour at Dawn')).toBeTruthy();
  });
});
