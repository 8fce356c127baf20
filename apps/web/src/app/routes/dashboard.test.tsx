import { screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../test/fake-api';
import { aProfile } from '../../test/fixtures';
import { renderRouter } from '../../test/render';
import { Component as Dashboard } from './dashboard';

afterEach(() => vi.unstubAllGlobals());

function renderAt(path: string) {
  fakeApi({
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
  return renderRouter(router);
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
