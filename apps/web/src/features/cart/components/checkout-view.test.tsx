import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { anOrder } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { CheckoutView } from './checkout-view';

afterEach(() => vi.unstubAllGlobals());

const items = [{ id: 1, product_id: 101, product_type: 'pack', title: 'Starter Pack', slug: 'starter', imageUrl: null, price: 29 }];
const summary = (balance: number) => ({
  items,
  total: 29,
  balance,
  shortfall: Math.max(0, 29 - balance),
  can_pay: balance >= 29,
  currency: 'EUR',
  currencySymbol: '€',
});

describe('Checkout page', () => {
  it('pays from the balance with an Idempotency-Key and goes to Order history', async () => {
    const calls = fakeApi({
      'POST /api/cart/checkout': () => okAnswer(summary(40)),
      'POST /api/cart/purchase': () => okAnswer({ status: 'Success', order: anOrder({ id: 4, title: 'Starter Pack', amount: 29, product_type: 'cart' }) }),
    });
    const { router } = renderWithApp(<CheckoutView />, { path: '/checkout' });
    expect(await screen.findByText('Balance after purchase')).toBeTruthy();
    expect(screen.getByText('11.00')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay €29.00 from balance' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/orders'));
    expect(calls.find((c) => c.path === '/api/cart/purchase')!.headers['Idempotency-Key']).toBeTruthy();
    // Bought in the currency shown: the order keeps it as the currency it was paid in (issue 18 bug 7).
    expect(calls.find((c) => c.path === '/api/cart/purchase')!.headers['X-Currency']).toBe('EUR');
  });

  it('with too little balance offers to add the shortfall and come back', async () => {
    fakeApi({ 'POST /api/cart/checkout': () => okAnswer(summary(20)) });
    renderWithApp(<CheckoutView />, { path: '/checkout' });
    expect(await screen.findByText('Your balance is €9.00 short.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add €9.00' }).getAttribute('href')).toBe('/deposit/create?amount=9.00&return=%2Fcheckout&currency=EUR');
    expect(screen.queryByRole('button', { name: /from balance/ })).toBeNull();
  });

  it('a refused purchase shows the server’s message', async () => {
    fakeApi({
      'POST /api/cart/checkout': () => okAnswer(summary(40)),
      'POST /api/cart/purchase': () =>
        jsonAnswer(422, { status: 'ERROR', message: 'Your balance is too low: 3.00 € is missing. Please add funds to continue.', errors: {} }),
    });
    renderWithApp(<CheckoutView />, { path: '/checkout' });
    fireEvent.click(await screen.findByRole('button', { name: 'Pay €29.00 from balance' }));
    expect((await screen.findAllByText('Your balance is too low: 3.00 € is missing. Please add funds to continue.')).length).toBeGreaterThan(0);
  });

  it('an empty cart shows the empty state', async () => {
    fakeApi({
      'POST /api/cart/checkout': () => jsonAnswer(422, { status: 'ERROR', message: 'Your cart is empty.', errors: { cart: ['Your cart is empty.'] } }),
    });
    renderWithApp(<CheckoutView />, { path: '/checkout' });
    expect(await screen.findByText('Find something you like in the shop.')).toBeTruthy();
  });
});
