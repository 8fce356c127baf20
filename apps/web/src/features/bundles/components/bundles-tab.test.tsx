import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { BundleReview } from './bundle-review';
import { BundlesTab } from './bundles-tab';

afterEach(() => vi.unstubAllGlobals());

const works = [
  { id: 11, title: 'Harbour dawn', price_minor: 1500 },
  { id: 12, title: 'Quiet birches', price_minor: 2500 },
  { id: 13, title: 'Salt marsh', price_minor: 1000 },
];

const aBundle = (over: Record<string, unknown> = {}) => ({
  id: 1,
  title: 'Coastal set',
  description: '',
  status: 'pending',
  reason: null,
  price_minor: 3000,
  items_price_minor: 4000,
  items: works.slice(0, 2),
  pack_id: null,
  pack_slug: null,
  creator_nickname: 'ines',
  created_at: '2026-12-01T10:00:00.000Z',
  ...over,
});

describe('the Bundles tab', () => {
  it('picks works, shows their sum and the highest bundle price, proposes; a server 422 lands under its field; a rejection shows its reason', async () => {
    let proposed = false;
    const calls = fakeApi({
      'GET /api/seller/bundles/works': () => okAnswer({ works }),
      'GET /api/seller/bundles': () =>
        okAnswer({
          bundles: proposed ? [aBundle({ id: 2, title: 'Three coasts' }), aBundle({ status: 'rejected', reason: 'Add a description.' })] : [aBundle()],
        }),
      'POST /api/seller/bundles': ({ body }) => {
        if ((body as { price: number }).price > 45) {
          return jsonAnswer(422, {
            status: 'ERROR',
            message: 'Invalid data.',
            errors: { price: ['A bundle must cost at least 10 % less than its works bought one by one (50.00 €): set a price of at most 45.00 €.'] },
          });
        }
        proposed = true;
        return okAnswer({ bundle: aBundle({ id: 2, title: 'Three coasts' }) });
      },
    });
    renderWithApp(<BundlesTab />);
    const row = await screen.findByTestId('bundle-1');
    expect(row.textContent).toContain('Waiting for review');
    expect(row.textContent).toContain('€30.00 for 2 works (€40.00 one by one)');

    const sum = await screen.findByTestId('bundle-sum');
    expect(sum.textContent).toBe('Pick at least two works to see their sum and the highest bundle price.');
    fireEvent.click(screen.getByLabelText(/Harbour dawn/));
    fireEvent.click(screen.getByLabelText(/Quiet birches/));
    await waitFor(() => expect(sum.textContent).toBe('2 works, €40.00 one by one: the bundle may cost at most €36.00.'));
    fireEvent.click(screen.getByLabelText(/Salt marsh/));
    await waitFor(() => expect(sum.textContent).toBe('3 works, €50.00 one by one: the bundle may cost at most €45.00.'));

    // The contract answers before anything is sent: no title.
    fireEvent.change(screen.getByLabelText('Bundle price (EUR)'), { target: { value: '46' } });
    fireEvent.click(screen.getByRole('button', { name: 'Propose bundle' }));
    expect(await screen.findByText('The title field is required.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    // The server's rule on the price lands under the price.
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Three coasts' } });
    fireEvent.click(screen.getByRole('button', { name: 'Propose bundle' }));
    expect(
      await screen.findByText('A bundle must cost at least 10 % less than its works bought one by one (50.00 €): set a price of at most 45.00 €.'),
    ).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Bundle price (EUR)'), { target: { value: '39,90' } });
    fireEvent.click(screen.getByRole('button', { name: 'Propose bundle' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST' && c.path === '/api/seller/bundles').at(-1)?.body).toEqual({
        title: 'Three coasts',
        description: '',
        product_ids: [11, 12, 13],
        price: 39.9,
      }),
    );
    expect(await screen.findByTestId('bundle-2')).toBeTruthy();
    expect((await screen.findByTestId('bundle-1')).textContent).toContain('Reason: Add a description.');
  });

  it('withdraws a pending proposal', async () => {
    const calls = fakeApi({
      'GET /api/seller/bundles/works': () => okAnswer({ works }),
      'GET /api/seller/bundles': () => okAnswer({ bundles: [aBundle()] }),
      'POST /api/seller/bundles/1/withdraw': () => okAnswer({ bundle: aBundle({ status: 'withdrawn' }) }),
    });
    renderWithApp(<BundlesTab />);
    const row = await screen.findByTestId('bundle-1');
    fireEvent.click(within(row).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/seller/bundles/1/withdraw')).toBe(true));
  });
});

describe('the back office bundle queue', () => {
  it('approves one proposal and rejects another with a reason (a reason is required)', async () => {
    const calls = fakeApi({
      'GET /api/admin/bundles': () => okAnswer({ bundles: [aBundle(), aBundle({ id: 2, title: 'Thin set' })] }),
      'POST /api/admin/bundles/1/approve': () => okAnswer({ bundle: aBundle({ status: 'approved', pack_id: 99, pack_slug: 'coastal-set-b1' }) }),
      'POST /api/admin/bundles/2/reject': () => okAnswer({ bundle: aBundle({ id: 2, status: 'rejected', reason: 'Too thin.' }) }),
    });
    renderWithApp(<BundleReview />);
    const first = await screen.findByTestId('review-bundle-1');
    expect(first.textContent).toContain('By ines');
    fireEvent.click(within(first).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/admin/bundles/1/approve')).toBe(true));

    const second = screen.getByTestId('review-bundle-2');
    fireEvent.click(within(second).getByRole('button', { name: 'Reject' }));
    fireEvent.click(within(second).getByRole('button', { name: 'Reject' }));
    expect(await within(second).findByText('Please say why, so the creator can fix it.')).toBeTruthy();
    fireEvent.change(within(second).getByLabelText('Reason for the creator'), { target: { value: 'Too thin.' } });
    fireEvent.click(within(second).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/admin/bundles/2/reject')?.body).toEqual({ reason: 'Too thin.' }));
  });
});
