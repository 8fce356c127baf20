import { screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../test/fake-api';
import { aProfile } from '../../test/fixtures';
import { jsonAnswer, renderRouter } from '../../test/render';
import { Component as Admin } from './admin';
import { Component as AdminOffers } from './admin-offers';

afterEach(() => vi.unstubAllGlobals());

const profile = (role: 'user' | 'admin') => aProfile({ id: 1, name: 'Ana', surname: 'Silva', nickname: 'ana', email: 'ana@example.com', role });

function open(role: 'user' | 'admin') {
  const calls = fakeApi({
    'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
    'GET /api/user/profile': () => okAnswer(profile(role)),
    'GET /api/admin/offers': () => okAnswer([]),
  });
  const router = createMemoryRouter([{ path: '/admin', Component: Admin, children: [{ index: true, Component: AdminOffers }] }], {
    initialEntries: ['/admin'],
  });
  renderRouter(router);
  return calls;
}

describe('the back office at /admin', () => {
  it('shows staff the section nav and the review queue', async () => {
    const calls = open('admin');
    expect(await screen.findByRole('heading', { name: 'Back office' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Back office sections' });
    expect([...nav.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      '/admin',
      '/admin/payouts',
      '/admin/refunds',
      '/admin/reports',
      '/admin/money',
      '/admin/tax',
      '/admin/catalog',
      '/admin/users',
      '/admin/messages',
      '/admin/site',
      '/admin/audit',
      '/admin/jobs',
      '/admin/analytics',
      '/admin/discounts',
      '/admin/bundles',
    ]);
    expect(await screen.findByText('No offers with this status.')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/admin/offers')).toBe(true);
  });

  it('shows anyone else the forbidden page and asks no staff call', async () => {
    const calls = open('user');
    expect(await screen.findByText('403')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Back office' })).toBeNull();
    expect(calls.some((c) => c.path.startsWith('/api/admin'))).toBe(false);
  });
});
