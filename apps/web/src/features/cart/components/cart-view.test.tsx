import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { CartView } from './cart-view';

afterEach(() => vi.unstubAllGlobals());

const line = (id: number, title: string, price: number, product_type = 'image') => ({
  id,
  product_id: id + 100,
  product_type,
  title,
  slug: `s-${id}`,
  imageUrl: null,
  price,
});
const cart = (items: ReturnType<typeof line>[]) => ({ items, total: items.reduce((s, i) => s + i.price, 0), currency: 'EUR', currencySymbol: '€' });
const balance = () => okAnswer({ amount: 42, currency: 'EUR', currencySymbol: '€', amount_minor: 4200 });

describe('Cart page', () => {
  it('issue 34: the buyer picks a line’s licence; the line is priced at it', async () => {
    const licences = [
      { tier: 'personal', price: 5 },
      { tier: 'commercial', price: 12.5 },
      { tier: 'extended', price: 40 },
    ];
    const at = (tier: string, price: number) => ({ ...line(1, 'Harbour at Dawn', price), licence_tier: tier, licences });
    const calls = fakeApi({
      'GET /api/cart': () => okAnswer({ ...cart([line(1, 'Harbour at Dawn', 12.5)]), items: [at('commercial', 12.5)] }),
      'GET /api/balance': balance,
      'POST /api/cart/items': () => okAnswer({ ...cart([line(1, 'Harbour at Dawn', 40)]), items: [at('extended', 40)] }),
    });
    renderWithApp(<CartView />);
    const select = (await screen.findByRole('combobox', { name: 'Licence for Harbour at Dawn' })) as HTMLSelectElement;
    expect(select.value).toBe('commercial');
    fireEvent.change(select, { target: { value: 'extended' } });
    await waitFor(() => expect(screen.getAllByText('40.00').length).toBeGreaterThan(0));
    expect(calls.find((c) => c.path === '/api/cart/items')!.body).toEqual({ product_id: 101, product_type: 'image', licence_tier: 'extended' });
    expect((screen.getByRole('combobox', { name: 'Licence for Harbour at Dawn' }) as HTMLSelectElement).value).toBe('extended');
  });

  it('lists the items with the total and the balance, and removes one', async () => {
    fakeApi({
      'GET /api/cart': () => okAnswer(cart([line(1, 'Harbour at Dawn', 12.5), line(2, 'Starter Pack', 29, 'pack')])),
      'GET /api/balance': balance,
      'DELETE /api/cart/items/1': () => okAnswer(cart([line(2, 'Starter Pack', 29, 'pack')])),
    });
    renderWithApp(<CartView />);
    expect(await screen.findByText('Harbour at Dawn')).toBeTruthy();
    expect(screen.getByText('Starter Pack').getAttribute('href')).toBe('/packs/s-2');
    expect(screen.getByText('41.50')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('cart-balance').textContent).toBe('€42.00'));
    expect(screen.getByText('Atelier Credits balance')).toBeTruthy();
    expect(screen.getByText('· 2 items')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Harbour at Dawn from the cart' }));
    await waitFor(() => expect(screen.queryByText('Harbour at Dawn')).toBeNull());
    expect(screen.getByText('· 1 item')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Checkout' }).getAttribute('href')).toBe('/checkout');
  });

  it('says a failed remove with the SPEC words', async () => {
    fakeApi({
      'GET /api/cart': () => okAnswer(cart([line(1, 'Harbour at Dawn', 12.5)])),
      'GET /api/balance': balance,
      'DELETE /api/cart/items/1': () => jsonAnswer(500, {}),
    });
    renderWithApp(<CartView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Harbour at Dawn from the cart' }));
    expect(await screen.findByText('Failed to remove item from cart')).toBeTruthy();
  });

  it('shows the empty cart', async () => {
    fakeApi({ 'GET /api/cart': () => okAnswer(cart([])), 'GET /api/balance': balance });
    renderWithApp(<CartView />);
    expect(await screen.findByText('Your cart is empty.')).toBeTruthy();
  });

  it('shows the server’s message when the cart cannot be loaded', async () => {
    fakeApi({ 'GET /api/cart': () => jsonAnswer(422, { status: 'ERROR', message: 'Please choose a currency.' }) });
    renderWithApp(<CartView />);
    expect(await screen.findByText('Please choose a currency.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
