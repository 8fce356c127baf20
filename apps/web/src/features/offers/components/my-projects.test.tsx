import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { PAYOUT_POLL_MS } from '../api/offers';
import { offerFixture } from '../testing/fixtures';
import { MyProjects } from './my-projects';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('My projects', () => {
  it('shows a loading state, then each offer with its thumbnail or type icon, price, coloured status, date, hashtags and View', async () => {
    let answer: (r: Response) => void = () => {};
    fakeApi({
      'GET /api/offer/history': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderWithApp(<MyProjects />);
    expect(await screen.findByRole('status', { name: 'Loading...' })).toBeTruthy();
    answer(
      okAnswer([
        offerFixture(),
        offerFixture({ id: 2, title: 'Cold Email', doc_type: 'other', imageUrl: null, status: 'offer', service_price: 30, user_price: 40, tags: [] }),
        offerFixture({ id: 3, title: 'Sold one', status: 'paid' }),
        offerFixture({ id: 4, title: 'Refused', status: 'declined_by_service', status_note: 'Not original.' }),
        offerFixture({ id: 5, title: 'Accepted', status: 'approved' }),
      ]),
    );
    const rows = await screen.findAllByTestId('offer');
    expect(rows).toHaveLength(5);
    const first = within(rows[0]!);
    expect(first.getByRole('heading', { name: 'Harbour at Dawn' })).toBeTruthy();
    expect(rows[0]!.querySelector('img')?.getAttribute('src')).toBe('/storage/offers/1.webp');
    expect(first.getByTestId('price').textContent).toBe('€12.50');
    expect(first.getByText('22.11.2026 07:05:09')).toBeTruthy();
    expect(first.getByText('#Photo-realism')).toBeTruthy();
    expect(first.getByText('#3D Rendering')).toBeTruthy();
    expect(first.getByRole('button', { name: 'View Harbour at Dawn' })).toBeTruthy();

    const second = within(rows[1]!);
    expect(rows[1]!.querySelector('img')).toBeNull();
    expect(second.getByRole('img', { name: 'Document' })).toBeTruthy();
    expect(second.getByTestId('price').textContent).toBe('€40.00');

    const tone = (row: number, text: string) => within(rows[row]!).getByText(text).getAttribute('data-tone');
    expect(tone(0, 'Pending')).toBe('yellow');
    expect(tone(1, 'Offer')).toBe('blue');
    expect(tone(2, 'Paid')).toBe('green');
    expect(tone(3, 'Declined by us')).toBe('red');
    expect(tone(4, 'Approved')).toBe('green');
    expect(screen.queryByRole('status', { name: 'Loading...' })).toBeNull();
  });

  it('says so when there are no projects yet', async () => {
    fakeApi({ 'GET /api/offer/history': () => okAnswer([]) });
    renderWithApp(<MyProjects />);
    expect(await screen.findByText('You have not created any projects yet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create new offer' })).toBeTruthy();
  });

  it('shows the server’s message, or the SPEC default, with a retry', async () => {
    fakeApi({ 'GET /api/offer/history': () => jsonAnswer(403, { status: 'ERROR', message: 'Your account is blocked.' }) });
    const { unmount } = renderWithApp(<MyProjects />);
    const message = await screen.findByText('Your account is blocked.');
    expect(message.className).toContain('error-text');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    unmount();

    fakeApi({ 'GET /api/offer/history': () => jsonAnswer(404, {}) });
    renderWithApp(<MyProjects />);
    expect(await screen.findByText('An error occurred while fetching offers')).toBeTruthy();
  });

  it('turns the two known server faults into their SPEC words', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = fakeApi({ 'GET /api/offer/history': () => jsonAnswer(500, { status: 'ERROR', message: 'Trying to access array offset on null' }) });
    renderWithApp(<MyProjects />);
    // A 5xx is asked again twice (1 s, then 2 s) before the error shows.
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/offer/history')).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(await screen.findByText('API error. Please contact support.')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/offer/history')).toHaveLength(3);
    await waitFor(() => expect(screen.getByRole('alert')).toBeTruthy());
  });

  it('asks again while a payout is processing, so the offer turns Paid without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status: 'payout_processing' | 'paid' = 'payout_processing';
    fakeApi({ 'GET /api/offer/history': () => okAnswer([offerFixture({ status, service_price: 40 })]) });
    renderWithApp(<MyProjects />);
    expect(await screen.findByText('Payout processing')).toBeTruthy();
    status = 'paid';
    await act(() => vi.advanceTimersByTimeAsync(PAYOUT_POLL_MS));
    expect(await screen.findByText('Paid')).toBeTruthy();
  });
});
