import type { SellerAnalytics } from '@atelier/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../test/fake-api';
import { renderWithApp } from '../../test/render';
import { Component as SalesTab } from './dashboard-sales';

/** What the chart was drawn with: jsdom has no canvas, so uPlot is replaced by one that keeps its data. */
const drawn = vi.hoisted(() => ({ data: [] as number[][][] }));
vi.mock('uplot', () => {
  class FakePlot {
    static paths = { bars: () => () => null };
    static tzDate = (d: Date) => d;
    constructor(_opts: unknown, data: number[][], target: HTMLElement) {
      drawn.data.push(data);
      target.append(Object.assign(document.createElement('canvas'), { className: 'u-plot' }));
    }
    setSize() {}
    destroy() {}
  }
  return { default: FakePlot };
});

afterEach(() => {
  vi.unstubAllGlobals();
  drawn.data = [];
});

function report(days: number): SellerAnalytics {
  const dates = Array.from({ length: days }, (_, i) => new Date(Date.UTC(2026, 10, 28) - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
  return {
    from: dates[0]!,
    to: dates.at(-1)!,
    currency: { code: 'EUR', symbol: '€', decimals: 2 },
    days: dates.map((date, i) => ({ date, views: i === days - 1 ? 9 : 1, sales: i === days - 1 ? 2 : 0, revenue: i === days - 1 ? 16 : 0 })),
    totals: { views: days - 1 + 9, sales: 2, revenue: 16, conversion: Math.round((2 / (days + 8)) * 10_000) / 10_000 },
    products: [{ id: 7, title: 'Night market', views: 9, sales: 2, revenue: 16 }],
  };
}

describe('the Sales tab', () => {
  it('shows the totals, the chart of views and sales per day (uPlot fetched on demand) and the works; a preset asks for its range', async () => {
    const calls = fakeApi({
      'GET /api/seller/analytics': ({ url }) => {
        const days = Math.round((Date.parse(url.searchParams.get('to')!) - Date.parse(url.searchParams.get('from')!)) / 86_400_000) + 1;
        return okAnswer(report(days));
      },
    });
    renderWithApp(<SalesTab />, { path: '/dashboard/sales' });

    expect(await screen.findByTestId('total-sales')).toHaveProperty('textContent', '2');
    expect(screen.getByTestId('total-views').textContent).toBe('38');
    expect(screen.getByTestId('total-revenue').textContent).toBe('€16.00');
    const table = screen.getByRole('table', { name: 'Works' });
    expect(within(table).getByRole('rowheader', { name: 'Night market' })).toBeTruthy();
    expect(
      within(table)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['9', '2', '€16.00']);

    // The chart: 30 days, today's 9 views and 2 sales last.
    await waitFor(() => expect(screen.getByRole('figure', { name: 'Views and sales per day' }).getAttribute('data-state')).toBe('ready'));
    const [xs, views, sales] = drawn.data.at(-1)!;
    expect(xs).toHaveLength(30);
    expect(views!.at(-1)).toBe(9);
    expect(sales!.at(-1)).toBe(2);
    expect(screen.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toMatch(/^\/api\/seller\/analytics\.csv\?from=\d{4}-\d{2}-\d{2}&to=/);

    fireEvent.click(screen.getByRole('button', { name: 'Last 7 days' }));
    await waitFor(() => expect(drawn.data.at(-1)![0]).toHaveLength(7));
    const asked = calls.filter((c) => c.path === '/api/seller/analytics').at(-1)!;
    expect(asked.method).toBe('GET');
    expect(screen.getByTestId('total-views').textContent).toBe('15');
  });

  it('says so when the sales cannot be loaded', async () => {
    fakeApi({ 'GET /api/seller/analytics': () => new Response(JSON.stringify({ status: 'ERROR', message: 'nope' }), { status: 400 }) });
    renderWithApp(<SalesTab />, { path: '/dashboard/sales' });
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load the sales.');
  });
});
