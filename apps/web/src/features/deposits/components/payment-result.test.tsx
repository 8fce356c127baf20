import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { leaveApp, readReturn, rememberReturn } from '../return-to';
import { PaymentFailed, PaymentSuccess } from './payment-result';

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('payment result pages', () => {
  it('fail page: the error from the query, or An unknown error occurred; Go to Dashboard', async () => {
    fakeApi({});
    const { unmount } = renderWithApp(<PaymentFailed />, { path: '/fail-payment?error=Your%20card%20was%20declined.' });
    expect(screen.getByRole('heading', { name: 'Payment Failed' })).toBeTruthy();
    expect(screen.getByText('Your card was declined.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
    unmount();
    renderWithApp(<PaymentFailed />, { path: '/fail-payment' });
    expect(screen.getByText('An unknown error occurred')).toBeTruthy();
  });

  it('issue 18 bug 6: Try Again starts a new payment for the failed deposit, not the spent card page', async () => {
    const started: unknown[] = [];
    fakeApi({
      'GET /api/deposit/history': () =>
        okAnswer([
          {
            id: 7,
            amount: 12.5,
            currency: 'USD',
            currencySymbol: '$',
            status: 'failed',
            payment_method: 'sandbox-card',
            payment_method_title: 'Card (test payment)',
            created_at: 1,
          },
        ]),
      'POST /api/deposit/checkout': ({ body }) => {
        started.push(body);
        return okAnswer({ order_id: 8, status: 'processing', redirect_url: 'https://pay.example/new' });
      },
    });
    const assign = vi.spyOn(leaveApp, 'to').mockImplementation(() => {});
    renderWithApp(<PaymentFailed />, { path: '/fail-payment?order_id=7&error=Your%20card%20was%20declined.' });
    const button = screen.getByRole('button', { name: 'Try Again' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/new'));
    expect(started).toEqual([{ amount: 12.5, currency: 'USD', payment_method: 'sandbox-card' }]);
  });

  it('Try Again without a known deposit opens Add Funds', async () => {
    fakeApi({});
    const { router } = renderWithApp(<PaymentFailed />, { path: '/fail-payment?error=x' });
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/deposit/create'));
  });

  it('success page: thanks, the latest deposit, View Deposits, Go to Dashboard, and the way back to a purchase', async () => {
    fakeApi({
      'GET /api/deposit/history': () =>
        okAnswer([
          {
            id: 3,
            amount: 25,
            currency: 'EUR',
            currencySymbol: '€',
            status: 'success',
            payment_method: 'sandbox-card',
            payment_method_title: 'Card (test payment)',
            created_at: 1,
          },
        ]),
    });
    rememberReturn('/products/harbour');
    const { router } = renderWithApp(<PaymentSuccess />, { path: '/success-payment' });
    expect(screen.getByRole('heading', { name: 'Thank You for Your Payment!' })).toBeTruthy();
    expect(await screen.findByText('Your deposit of €25.00 is successful.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View Deposits' }).getAttribute('href')).toBe('/dashboard/deposits');
    expect(screen.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    fireEvent.click(screen.getByRole('button', { name: 'Back to your purchase' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/products/harbour'));
    expect(readReturn()).toBeNull();
  });

  it('a return path that leaves the app is never kept', () => {
    rememberReturn('https://evil.example/');
    expect(readReturn()).toBeNull();
    rememberReturn('//evil.example/');
    expect(readReturn()).toBeNull();
  });
});
