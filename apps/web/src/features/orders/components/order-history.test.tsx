import type { OrderItem } from '@atelier/shared';
import { de } from '@atelier/shared/i18n/de';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { anOrder, anOrderItem, siteSettings } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { OrderHistory } from './order-history';

afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const item = (id: number, title: string): OrderItem => ({
  price: 4,
  product_type: 'prompt',
  info: { id, title, doc_url: null, doc_url_orig: `/api/user/media/download?id=1&product_id=${id}`, tags: [], authorNickname: 'sofia', image_prompt: false },
  seller: { nickname: 'sofia' },
});

/** An order paid in yen (no decimals), with what it comes to in euros today. */
const yenOrder = anOrder({
  id: 4,
  title: 'Paid in yen',
  amount: 3078,
  currencyCode: 'JPY',
  today: { amount: 19, currencyCode: 'EUR' },
  product_type: 'prompt',
  created_at: new Date(2026, 10, 22, 7, 5).getTime() / 1000,
  items: [{ ...item(8, 'Paid in yen'), price: 3078 }],
});

describe('Order history', () => {
  it('lists orders with the date as dd.mm.yyyy HH:mm and a download per item of a successful order only', async () => {
    const at = new Date(2026, 10, 22, 7, 5).getTime() / 1000;
    fakeApi({
      'GET /api/purchase/history': () =>
        okAnswer([
          anOrder({ id: 2, title: '2 items', amount: 8, product_type: 'cart', created_at: at, items: [item(5, 'Cold Email'), item(6, 'Logo Ideas')] }),
          {
            id: 1,
            title: 'Old one',
            amount: 3,
            currencyCode: 'EUR',
            today: null,
            status: 'Failed',
            product_type: 'prompt',
            created_at: at,
            items: [item(7, 'Old one')],
          },
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
    fakeApi({ 'GET /api/purchase/history': () => okAnswer([yenOrder]) });
    renderWithApp(<OrderHistory />);
    expect(await screen.findByText('Order #4')).toBeTruthy();
    const prices = screen.getAllByTestId('price').map((p) => p.textContent);
    expect(prices).toEqual(['¥3,078', '¥3,078']);
    expect(screen.getByTestId('order-today').textContent).toBe('About €19.00 today');
  });

  it('issue 18 bug 7: in German a yen order reads 3.078 ¥ (no decimals, a dot between thousands, the symbol after), with the euro hint as 19,00 €', async () => {
    i18n.addResourceBundle('de', de);
    await i18n.changeLanguage('de');
    fakeApi({ 'GET /api/purchase/history': () => okAnswer([yenOrder]) });
    renderWithApp(<OrderHistory />);
    expect(await screen.findByText('Bestellung #4')).toBeTruthy();
    // Intl separates the symbol with a no-break space, so the amount never wraps.
    expect(screen.getAllByTestId('price').map((p) => p.textContent)).toEqual(['3.078\u00a0¥', '3.078\u00a0¥']);
    expect(screen.getByTestId('order-today').textContent).toBe('Heute etwa 19,00\u00a0€');
  });

  it('issue 18 bug 7: an amount follows a change of language at once', async () => {
    fakeApi({
      'GET /api/purchase/history': () =>
        okAnswer([
          {
            id: 2,
            title: 'Big one',
            amount: 1234.5,
            currencyCode: 'EUR',
            today: null,
            status: 'Success',
            product_type: 'prompt',
            created_at: new Date(2026, 10, 22, 7, 5).getTime() / 1000,
            items: [{ ...item(5, 'Big one'), price: 1234.5 }],
          },
        ]),
    });
    renderWithApp(<OrderHistory />);
    expect(await screen.findByText('Order #2')).toBeTruthy();
    expect(screen.getAllByTestId('price')[0]!.textContent).toBe('€1,234.50');
    i18n.addResourceBundle('de', de);
    await act(() => i18n.changeLanguage('de'));
    expect(screen.getAllByTestId('price')[0]!.textContent).toBe('1.234,50\u00a0€');
  });

  it('issue 33: an order names its VAT and links its invoice, and a refunded one its credit note', async () => {
    const at = new Date(2026, 10, 22, 7, 5).getTime() / 1000;
    const tax = { country: 'DE', rate: 19, net_minor: 1597, vat_minor: 303, reverse_charge: false };
    fakeApi({
      'GET /api/purchase/history': () =>
        okAnswer([
          {
            ...{
              id: 9,
              title: 'Cold Email',
              amount: 19,
              currencyCode: 'EUR',
              today: null,
              product_type: 'prompt',
              created_at: at,
              items: [item(5, 'Cold Email')],
            },
            status: 'Refunded',
            tax,
            invoice_number: '2026-000042',
            invoice_url: '/api/orders/9/invoice.pdf',
            credit_note_url: '/api/orders/9/credit-note.pdf',
          },
        ]),
    });
    renderWithApp(<OrderHistory />);
    const invoice = await screen.findByRole('link', { name: 'Invoice 2026-000042' });
    expect(invoice.getAttribute('href')).toBe('/api/orders/9/invoice.pdf');
    expect(screen.getByRole('link', { name: 'Credit note' }).getAttribute('href')).toBe('/api/orders/9/credit-note.pdf');
    expect(screen.getByTestId('order-vat').textContent).toBe('incl. VAT 19 %: €3.03');
  });

  it('says No orders found when there are none', async () => {
    fakeApi({ 'GET /api/purchase/history': () => okAnswer([]) });
    renderWithApp(<OrderHistory />);
    expect(await screen.findByText('No orders found')).toBeTruthy();
  });

  it('shows the SPEC error in red with a retry', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = fakeApi({ 'GET /api/purchase/history': () => jsonAnswer(503, {}) });
    const asked = () => calls.filter((c) => c.path === '/api/purchase/history').length;
    renderWithApp(<OrderHistory />);
    // A 5xx is asked again twice (1 s, then 2 s) before the error shows.
    await waitFor(() => expect(asked()).toBe(1));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(asked()).toBe(2));
    expect(screen.queryByText('Failed to fetch orders')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    const message = await screen.findByText('Failed to fetch orders');
    expect(asked()).toBe(3);
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
      'GET /api/settings': () =>
        okAnswer(siteSettings({ image_generation: 'model', formats: [{ id: 1, title: 'PNG' }], sizes: [{ id: 1, title: '1024x1024' }] })),
      'GET /api/purchase/history': () =>
        okAnswer([
          anOrder({
            id: 3,
            title: '2 items',
            amount: 8,
            product_type: 'cart',
            created_at: at,
            items: [withKind(5, 'Cold Email', false), withKind(6, 'Watercolor', true)],
          }),
        ]),
    });
    renderWithApp(<OrderHistory />);
    expect(await screen.findByText('Generate an image')).toBeTruthy();
    expect(screen.getAllByText('Generate an image')).toHaveLength(1);
    expect(screen.getByRole('group', { name: 'Generate an image from Watercolor' })).toBeTruthy();
  });

  it('issue 34: a bought work lists its versions with notes and dates when opened, newest first', async () => {
    const calls = fakeApi({
      'GET /api/purchase/history': () => okAnswer([anOrder({ items: [anOrderItem()] })]),
      'GET /api/products/7/versions': () =>
        okAnswer({
          product_id: 7,
          updated_at: '2026-11-30T09:00:00.000Z',
          versions: [
            {
              id: 2,
              number: 2,
              status: 'published',
              notes: 'Sharper stars.',
              format: 'PNG',
              created_at: '2026-11-30T09:00:00.000Z',
              published_at: '2026-11-30T09:00:00.000Z',
              review_note: null,
            },
            {
              id: 1,
              number: 1,
              status: 'published',
              notes: '',
              format: 'PNG',
              created_at: '2026-11-01T09:00:00.000Z',
              published_at: '2026-11-01T09:00:00.000Z',
              review_note: null,
            },
          ],
        }),
    });
    renderWithApp(<OrderHistory />);
    const summary = await screen.findByText('Versions');
    // Loaded only when the buyer opens it.
    expect(calls.some((c) => c.path === '/api/products/7/versions')).toBe(false);
    act(() => {
      const details = summary.closest('details')!;
      details.open = true;
      details.dispatchEvent(new Event('toggle'));
    });
    const list = await screen.findByRole('list', { name: 'Versions' });
    const items = within(list).getAllByTestId('version');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Version 2');
    expect(items[0]!.textContent).toContain('Sharper stars.');
    expect(items[1]!.textContent).toContain('First release');
  });
});
