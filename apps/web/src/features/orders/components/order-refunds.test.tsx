import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { aRefundRequest } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { OrderHistory } from './order-history';

afterEach(() => vi.unstubAllGlobals());

const item = (id: number, title: string, refund_status: 'Refunded' | null = null) => ({
  price: 4,
  product_type: 'image',
  info: { id, title, doc_url: null, doc_url_orig: `/api/user/media/download?id=2&product_id=${id}`, tags: [], authorNickname: 'sofia', image_prompt: false },
  seller: { nickname: 'sofia' },
  refund_status,
});
const order = (created_at: number, items: ReturnType<typeof item>[], status = 'Success') => ({
  id: 2,
  title: '3 items',
  amount: 12,
  currencyCode: 'EUR',
  today: null,
  status,
  product_type: 'cart',
  created_at,
  items,
});
const now = () => Math.floor(Date.now() / 1000);
const request = aRefundRequest({
  messages: [
    { from: 'buyer', text: 'The file does not open.', created_at: now() - 60 },
    { from: 'creator', text: 'It opens for me.', created_at: now() - 30 },
  ],
  created_at: now() - 60,
});

describe('Order history: refunds', () => {
  it('offers "Request a refund" on each item within 14 days and sends the reason and message', async () => {
    const calls = fakeApi({
      'GET /api/purchase/history': () => okAnswer([order(now() - 3600, [item(5, 'Cold Email'), item(6, 'Logo Ideas'), item(7, 'Old Map', 'Refunded')])]),
      'GET /api/refund-requests': () => okAnswer([request]),
      'POST /api/orders/2/refund-request': () => jsonAnswer(200, { status: 'OK', payload: { id: 32, status: 'open' } }),
    });
    renderWithApp(<OrderHistory />);
    const first = (await screen.findByText('Cold Email')).closest('li')!;
    // The item with a request in progress shows its state and conversation instead of the button.
    const second = (await screen.findByText('It opens for me.')).closest('li.order-item')! as HTMLElement;
    expect(within(second).getByText('Creator answered')).toBeTruthy();
    expect(within(second).getByText('The file does not open.')).toBeTruthy();
    expect(within(second).queryByRole('button', { name: 'Request a refund' })).toBeNull();
    // A refunded item says so, with neither a download nor a request.
    const third = screen.getByText('Old Map').closest('li')!;
    expect(within(third).getByText('Refunded')).toBeTruthy();
    expect(within(third).queryByRole('button', { name: 'Download' })).toBeNull();
    expect(within(third).queryByRole('button', { name: 'Request a refund' })).toBeNull();

    fireEvent.click(within(first).getByRole('button', { name: 'Request a refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request a refund' });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'broken_file' } });
    const send = within(dialog).getByRole('button', { name: 'Send request' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Message'), { target: { value: '  It will not open.  ' } });
    fireEvent.click(send);
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toBeDefined());
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ reason: 'broken_file', message: 'It will not open.', product_id: 5 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the server message when the request is refused', async () => {
    fakeApi({
      'GET /api/purchase/history': () => okAnswer([order(now() - 3600, [item(5, 'Cold Email')])]),
      'GET /api/refund-requests': () => okAnswer([]),
      'POST /api/orders/2/refund-request': () => jsonAnswer(409, { status: 'ERROR', message: 'A refund request for this item is already open.' }),
    });
    renderWithApp(<OrderHistory />);
    fireEvent.click(await screen.findByRole('button', { name: 'Request a refund' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Message'), { target: { value: 'Broken' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('A refund request for this item is already open.');
  });

  it('no refund button for an order older than 14 days', async () => {
    fakeApi({
      'GET /api/purchase/history': () => okAnswer([order(now() - 15 * 86_400, [item(5, 'Cold Email')])]),
      'GET /api/refund-requests': () => okAnswer([]),
    });
    renderWithApp(<OrderHistory />);
    expect(await screen.findByText('Cold Email')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Request a refund' })).toBeNull();
  });
});
