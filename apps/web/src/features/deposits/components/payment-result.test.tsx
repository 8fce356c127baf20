import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { readReturn, rememberReturn } from '../return-to';
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

  it('success page: thanks, the latest deposit, View Deposits, Go to Dashboard, and the way back to a purchase', async () => {
    fakeApi({
      'GET /api/deposit/history': () =>
        okAnswer([{ id: 3, amount: 25, currency: 'EUR', currencySymbol: '€', status: 'success', payment_method: 'sandbox-card', created_at: 1 }]),
    });
    rememberReturn('/products/harbour');
    const { router } = renderWithApp(<PaymentSuccess />, { path: '/success-payment' });
    expect(screen.getByRole('heading', { name: 'Thank You for Your Payment!' })).toBeTruthy();
    expect(await screen.findByText('Your deposit of 25.00 € is successful.')).toBeTruthy();
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
