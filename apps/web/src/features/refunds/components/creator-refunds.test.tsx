import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { CreatorRefunds } from './creator-refunds';

afterEach(() => vi.unstubAllGlobals());

const base = {
  reason: 'not_as_described',
  order_id: 2,
  product_id: 6,
  unlock_message_id: null,
  chat_id: null,
  amount: { amount: 4, currency: 'EUR', currencySymbol: '€', amount_minor: 400 },
  buyer: { id: 1, nickname: 'ana' },
  creator: { id: 2, nickname: 'sofia' },
  created_at: 1_790_000_000,
  resolved_at: null,
};
const open = {
  ...base,
  id: 31,
  status: 'open',
  role: 'creator',
  title: 'Logo Ideas',
  messages: [{ from: 'buyer', text: 'Not the logo.', created_at: 1_790_000_000 }],
};
const mineAsBuyer = { ...base, id: 40, status: 'open', role: 'buyer', title: 'Bought elsewhere', messages: [] };

describe('Creator refund requests', () => {
  it("lists only requests about the creator's sales; answers once, or accepts", async () => {
    const calls = fakeApi({
      'GET /api/refund-requests': () => okAnswer([open, mineAsBuyer]),
      'POST /api/refund-requests/31/respond': () => okAnswer({ ...open, status: 'responded' }),
      'POST /api/refund-requests/31/accept': () => okAnswer({ ...open, status: 'refunded' }),
    });
    renderWithApp(<CreatorRefunds />);
    const card = await screen.findByTestId('creator-refund');
    expect(screen.getAllByTestId('creator-refund')).toHaveLength(1);
    expect(screen.queryByText('Bought elsewhere')).toBeNull();
    expect(within(card).getByText('Asked by @ana')).toBeTruthy();
    expect(within(card).getByText('Not the logo.')).toBeTruthy();

    fireEvent.change(within(card).getByLabelText('Your answer (you can answer once)'), { target: { value: 'It is the agreed logo.' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/refund-requests/31/respond')).toBe(true));
    expect(calls.find((c) => c.path === '/api/refund-requests/31/respond')!.body).toEqual({ message: 'It is the agreed logo.' });

    fireEvent.click(within(card).getByRole('button', { name: 'Accept and refund' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/refund-requests/31/accept')).toBe(true));
  });
});
