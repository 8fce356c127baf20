import { screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../test/fake-api';
import { aProfile } from '../../test/fixtures';
import { jsonAnswer, renderRouter } from '../../test/render';
import { Component as Dashboard } from './dashboard';

afterEach(() => vi.unstubAllGlobals());

const publicProfile = (productsCount: number) => ({
  id: 1,
  name: 'Ana',
  surname: 'Silva',
  nickname: 'ana',
  about_me: '',
  hourly_rate: 0,
  avatar_path: null,
  avatar_url_large: null,
  created_at: 1,
  products_count: productsCount,
  rating_average: 0,
  rating_count: 0,
  followers_count: 0,
  following: false,
});

function renderAt(path: string, productsCount = 0) {
  const calls = fakeApi({
    'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
    'GET /api/offer/history': () => okAnswer([]),
    'GET /api/user/public-profile/ana': () => okAnswer(publicProfile(productsCount)),
    'GET /api/user/profile': () => okAnswer(aProfile({ id: 1, name: 'Ana', surname: 'Silva', nickname: 'ana', email: 'ana@example.com' })),
    'GET /api/balance': () => okAnswer({ amount: 12.5, currency: 'EUR', currencySymbol: '€', amount_minor: 1250 }),
  });
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard',
        element: <Dashboard />,
        children: [
          { path: '*', element: <p>tab</p> },
          { index: true, element: <p>tab</p> },
        ],
      },
    ],
    {
      initialEntries: [path],
    },
  );
  renderRouter(router);
  return calls;
}

describe('the dashboard frame (issue 18: 375 px)', () => {
  it('shows the balance card on the tabs about money, not above every tab', async () => {
    renderAt('/dashboard/statement');
    expect(await screen.findByRole('region', { name: /balance/i })).toBeTruthy();
  });

  it('leaves it out of the chat and security tabs, which start with their own content', async () => {
    renderAt('/dashboard/security');
    await screen.findByRole('link', { name: 'Security' });
    expect(screen.queryByRole('region', { name: /balance/i })).toBeNull();
  });
});

describe('Library and Dashboard (issue 31)', () => {
  it('gives a buyer the Library tabs and a way to start selling, without the creator tabs', async () => {
    renderAt('/dashboard');
    const library = await screen.findByRole('navigation', { name: 'Library' });
    expect(library.textContent).toContain('Order history');
    expect(await screen.findByRole('link', { name: 'Sell your work' })).toBeTruthy();
    // The first screen is the buyer's orders: that tab is the open one.
    expect(screen.getByRole('link', { name: 'Order history' }).className).toContain('active');
    expect(screen.queryByRole('navigation', { name: 'Creator dashboard' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Sales' })).toBeNull();
  });

  it('adds the creator tabs for someone with works', async () => {
    renderAt('/dashboard', 2);
    const creator = await screen.findByRole('navigation', { name: 'Creator dashboard' });
    for (const tab of ['My projects', 'Sales', 'Earnings', 'Refund requests']) expect(creator.textContent).toContain(tab);
    expect(screen.getByRole('link', { name: 'My projects' }).className).toContain('active');
    expect(screen.queryByRole('link', { name: 'Sell your work' })).toBeNull();
  });
});
