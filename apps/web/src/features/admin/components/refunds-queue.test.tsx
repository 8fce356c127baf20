import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { aRefundRequest } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { RefundsQueue } from './refunds-queue';

afterEach(() => vi.unstubAllGlobals());

const request = {
  ...aRefundRequest({ role: 'staff', order_id: 12 }),
  file_url: '/products/logo-ideas',
  history: { buyer: { requests: 3, refunded: 1 }, creator: { requests: 2, refunded: 0 } },
};

describe('Refunds queue', () => {
  it('shows the order, the file, both messages and both histories; refunds with a note', async () => {
    const calls = fakeApi({
      'GET /api/admin/refund-requests': () => okAnswer([request]),
      'POST /api/admin/refund-requests/31/resolve': ({ body }) =>
        okAnswer({ ...request, status: (body as { decision: string }).decision === 'refund' ? 'refunded' : 'rejected' }),
    });
    renderWithApp(<RefundsQueue />);
    const card = await screen.findByTestId('refund-request');
    expect(calls.find((c) => c.path === '/api/admin/refund-requests')).toBeDefined();
    expect(within(card).getByText(/Order #12/)).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Open the file' }).getAttribute('href')).toBe('/products/logo-ideas');
    expect(within(card).getByText('The file does not open.')).toBeTruthy();
    expect(within(card).getByText('It opens for me.')).toBeTruthy();
    expect(within(card).getByText(/Buyer @ana: 3 requests, 1 refunded/)).toBeTruthy();
    expect(within(card).getByText(/Creator @sofia: 2 requests, 0 refunded/)).toBeTruthy();
    expect(within(card).getByText('(€4.00)')).toBeTruthy();

    fireEvent.change(within(card).getByLabelText('Note for both parties'), { target: { value: ' Broken on our side too. ' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ decision: 'refund', note: 'Broken on our side too.' });
  });
});
