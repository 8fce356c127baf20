import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { ProcessingPayment } from './processing-payment';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('processing-payment', () => {
  it('without an order id says Invalid order ID and goes to Add Funds after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fakeApi({});
    const { router } = renderWithApp(<ProcessingPayment />, { path: '/processing-payment' });
    expect(await screen.findByRole('heading', { name: 'Invalid order ID' })).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(router.state.location.pathname).toBe('/processing-payment');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(router.state.location.pathname).toBe('/deposit/create');
  });

  it('polls every 5 s while processing, then goes to the success page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answers = 0;
    fakeApi({
      'GET /api/deposit/status': () => {
        answers++;
        return okAnswer({ status: answers < 2 ? 'processing' : 'success', error_message: null, redirect_url: null });
      },
    });
    const { router } = renderWithApp(<ProcessingPayment />, { path: '/processing-payment?order_id=5' });
    expect(await screen.findByText('Processing Your Payment')).toBeTruthy();
    expect(screen.getByText('Please wait while we process your payment. Do not close this window.')).toBeTruthy();
    expect(await screen.findByText('Status: processing')).toBeTruthy();
    expect(answers).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(router.state.location.pathname).toBe('/success-payment'));
    expect(answers).toBe(2);
  });

  it('a failed deposit goes to the fail page with its message', async () => {
    fakeApi({ 'GET /api/deposit/status': () => okAnswer({ status: 'failed', error_message: 'Your card was declined.', redirect_url: null }) });
    const { router } = renderWithApp(<ProcessingPayment />, { path: '/processing-payment?order_id=5' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/fail-payment'));
    expect(router.state.location.search).toBe('?order_id=5&error=Your%20card%20was%20declined.');
  });

  it('an error without a message says Payment failed', async () => {
    fakeApi({ 'GET /api/deposit/status': () => okAnswer({ status: 'error', error_message: null, redirect_url: null }) });
    const { router } = renderWithApp(<ProcessingPayment />, { path: '/processing-payment?order_id=5' });
    await waitFor(() => expect(router.state.location.search).toBe('?order_id=5&error=Payment%20failed'));
  });
});
