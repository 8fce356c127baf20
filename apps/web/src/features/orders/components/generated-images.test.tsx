import type { Generation } from '@atelier/shared';
import { QueryClient } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { applyLiveEvent } from '../../notifications';
import { OrderHistory } from './order-history';

afterEach(() => vi.unstubAllGlobals());

const at = new Date(2026, 10, 22, 7, 5).getTime() / 1000;
const generation = (id: number, status: Generation['status'], extra: Partial<Generation> = {}): Generation => ({
  id,
  prompt_id: 5,
  prompt_title: 'Neon harbour',
  status,
  price: 1,
  created_at: at,
  download_url: status === 'ready' ? `/api/user/generations/${id}/download` : null,
  ...extra,
});

describe('Generated images in the order history (issue 29)', () => {
  it('lists each generated image with its price and date, a download once ready, and what happens to the others', async () => {
    fakeApi({
      'GET /api/purchase/history': () => okAnswer([]),
      'GET /api/user/generations': () =>
        okAnswer([generation(9, 'processing'), generation(8, 'ready'), generation(7, 'refunded', { prompt_id: null, prompt_title: null })]),
    });
    renderWithApp(<OrderHistory />);
    const section = await screen.findByRole('region', { name: 'Generated images' });
    const rows = within(section).getAllByTestId('generation');
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['processing', 'ready', 'refunded']);

    expect(within(rows[0]!).getByText('Being generated')).toBeTruthy();
    expect(within(rows[0]!).getByText(/You will be notified when it is ready\./)).toBeTruthy();
    expect(within(rows[0]!).queryByRole('button', { name: 'Download' })).toBeNull();

    const download = within(rows[1]!).getByRole('button', { name: 'Download' });
    expect(download.getAttribute('data-download-url')).toBe('/api/user/generations/8/download');
    expect(within(rows[1]!).getByText('22.11.2026 07:05')).toBeTruthy();
    expect(within(rows[1]!).getByTestId('price').textContent).toBe('€1.00');

    // Its prompt was deleted meanwhile: still listed, by number.
    expect(within(rows[2]!).getByText('Generated image #7')).toBeTruthy();
    expect(within(rows[2]!).getByText('Refunded')).toBeTruthy();
    // Orders: none yet, and the shop is one click away.
    expect(screen.getByText('No orders found')).toBeTruthy();
  });

  it('shows no section when there are no generated images, and says so when they cannot be loaded', async () => {
    fakeApi({ 'GET /api/purchase/history': () => okAnswer([]), 'GET /api/user/generations': () => okAnswer([]) });
    const { unmount } = renderWithApp(<OrderHistory />);
    expect(await screen.findByText('No orders found')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Generated images' })).toBeNull();
    unmount();

    fakeApi({ 'GET /api/purchase/history': () => okAnswer([]) });
    renderWithApp(<OrderHistory />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load your generated images');
  });

  it('the live event generation_finished makes the cached list stale, so an open order history fetches it again', async () => {
    fakeApi({ 'GET /api/user/generations': () => okAnswer([generation(9, 'processing')]) });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await queryClient.fetchQuery({ queryKey: ['generations'], queryFn: async () => (await (await fetch('/api/user/generations')).json()).payload });
    expect(queryClient.getQueryState(['generations'])?.isInvalidated).toBe(false);
    act(() => applyLiveEvent(queryClient, { kind: 'generation_finished', chatId: null, notificationId: 3 }));
    expect(queryClient.getQueryState(['generations'])?.isInvalidated).toBe(true);
  });
});
