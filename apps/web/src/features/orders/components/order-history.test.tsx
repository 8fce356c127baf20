import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer, siteAnswers } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { OrderHistory } from './order-history';

afterEach(() => vi.unstubAllGlobals());

const item = (id: number, title: string) => ({
  price: 4,
  product_type: 'prompt',
  info: { id, title, doc_url: null, doc_url_orig: `/api/user/media/download?id=1&product_id=${id}`, tags: [], authorNickname: 'sofia' },
  seller: { nickname: 'sofia' },
});

describe('Order history', () => {
  it('lists orders with the date as dd.mm.yyyy HH:mm and a download per item of a successful order only', async () => {
    const at = new Date(2026, 10, 22, 7, 5).getTime() / 1000;
    fakeApi({
      'GET /api/purchase/history': () =>
        okAnswer([
          {
            id: 2,
            title: '2 items',
            amount: 8,
            currencyCode: 'EUR',
            status: 'Success',
            product_type: 'cart',
            created_at: at,
            items: [item(5, 'Cold Email'), item(6, 'Logo Ideas')],
          },
          { id: 1, title: 'Old one', amount: 3, currencyCode: 'EUR', status: 'Failed', product_type: 'prompt', created_at: at, items: [item(7, 'Old one')] },
        ]),
    });
    renderWithApp(<OrderHistory />);
    expect(await screen.findByText('Order #2')).toBeTruthy();
    expect(screen.getAllByText('22.11.2026 07:05')).toHaveLength(2);
    const downloads = screen.getAllByRole('button', { name: 'Download' });
    expect(downloads.map((b) => b.getAttribute('data-download-url'))).toEqual([
      '/api/user/media/download?id=1&product_id=5',
      '/api/user/media/download?id=1&product_id=6',
    ]);
    expect(screen.getByText('8.00').closest('[data-testid="price"]')?.textContent).toBe('€8.00');
    expect(screen.getByText('Failed')).toBeTruthy();
  });

  it('issue 18 bug 7: shows a past order in the currency it was paid in, without decimals for JPY, with the amount today as a hint', async () => {
    const at = new Date(2026, 10, 22, 7, 5).getTime() / 1000;
    fakeApi({
      'GET /api/purchase/history': () =>
        okAnswer([
          {
            id: 4,
            title: 'Paid in yen',
            amount: 3078,
            currencyCode: 'JPY',
            today: { amount: 19, currencyCode: 'EUR' },
            status: 'Success',
            product_type: 'prompt',
            created_at: at,
            items: [{ ...item(8, 'Paid in yen'), price: 3078 }],
          },
        ]),
    });
    renderWithApp(<OrderHistory />);
    expect(await screen.findByText('Order #4')).toBeTruthy();
    const prices = screen.getAllByTestId('price').map((p) => p.textContent);
    expect(prices).toEqual(['¥3,078', '¥3,078']);
    expect(screen.getByTestId('order-today').textContent).toBe('About €19.00 today');
  });

  it('says No orders found when there are none', async () => {
    fakeApi({ 'GET /api/purchase/history': () => okAnswer([]) });
    renderWithApp(<OrderHistory />);
    expect(await screen.findByText('No orders found')).toBeTruthy();
  });

  it('shows the SPEC error in red with a retry', async () => {
    fakeApi({ 'GET /api/purchase/history': () => jsonAnswer(503, {}) });
    renderWithApp(<OrderHistory />);
    // A 5xx is asked again twice (1 s, then 2 s) before the error shows.
    const message = await screen.findByText('Failed to fetch orders', undefined, { timeout: 6000 });
    expect(message.className).toContain('error-text');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('issue 18 bug 4: offers generation for an owned image prompt only, never for a text prompt', async () => {
    const at = new Date(2026, 10, 22, 7, 5).getTime() / 1000;
    const withKind = (id: number, title: string, image_prompt: boolean) => {
      const base = item(id, title);
      return { ...base, info: { ...base.info, image_prompt } };
    };
    fakeApi({
      'GET /api/settings': async () => {
        const base = await (await siteAnswers['GET /api/settings']!({} as never)).json();
        return okAnswer({ ...base.payload, image_generation: 'model', formats: [{ id: 1, title: 'PNG' }], sizes: [{ id: 1, title: '1024x1024' }] });
      },
      'GET /api/purchase/history': () =>
        okAnswer([
          {
            id: 3,
            title: '2 items',
            amount: 8,
            currencyCode: 'EUR',
            status: 'Success',
            product_type: 'cart',
            created_at: at,
            items: [withKind(5, 'Cold Email', false), withKind(6, 'Watercolor', true)],
          },
        ]),
    });
    renderWithApp(<OrderHistory />);
    expect(await screen.findByText('Generate an image')).toBeTruthy();
    expect(screen.getAllByText('Generate an image')).toHaveLength(1);
    expect(screen.getByRole('group', { name: 'Generate an image from Watercolor' })).toBeTruthy();
  });
});
