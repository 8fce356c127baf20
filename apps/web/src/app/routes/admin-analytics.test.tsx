import type { PlatformAnalytics } from '@atelier/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../test/fake-api';
import { renderWithApp } from '../../test/render';
import { Component as PlatformSales } from './admin-analytics';

vi.mock('uplot', () => ({
  default: class {
    static paths = { bars: () => () => null };
    static tzDate = (d: Date) => d;
    setSize() {}
    destroy() {}
  },
}));

afterEach(() => vi.unstubAllGlobals());

const answer: PlatformAnalytics = {
  from: '2026-10-30',
  to: '2026-11-28',
  currency: { code: 'EUR', symbol: '€', decimals: 2 },
  days: [{ date: '2026-11-28', views: 12, sales: 3, revenue: 30, commission: 6 }],
  totals: { views: 12, sales: 3, revenue: 30, commission: 6, conversion: 0.25 },
  products: [{ id: 4, title: 'Alpine Lake Mirror', author: 'mirachen', views: 12, sales: 3, revenue: 30 }],
};

describe('the back office analytics', () => {
  it('shows all sales platform-wide with the commission earned and each work’s creator', async () => {
    fakeApi({ 'GET /api/admin/analytics': () => okAnswer(answer) });
    renderWithApp(<PlatformSales />, { path: '/admin/analytics' });
    expect((await screen.findByTestId('total-commission')).textContent).toBe('€6.00');
    expect(screen.getByTestId('total-revenue').textContent).toBe('€30.00');
    expect(screen.getByText('25 %')).toBeTruthy();
    const row = within(screen.getByRole('table', { name: 'Works' })).getByRole('row', { name: /Alpine Lake Mirror/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['@mirachen', '12', '3', '€30.00']);
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toMatch(/^\/api\/admin\/analytics\.csv\?/);
    await waitFor(() => expect(screen.getByRole('figure', { name: 'Views and sales per day' }).getAttribute('data-state')).toBe('ready'));
  });
});
