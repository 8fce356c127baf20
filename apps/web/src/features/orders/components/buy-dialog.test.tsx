import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { anOrder } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { BuyDialog } from './buy-dialog';

afterEach(() => vi.unstubAllGlobals());

const product = { id: 7, title: 'Harbour at Dawn', product_type: 'image' as const, price: 12.5, currency: 'EUR', currencySymbol: '€' };
const balance = (amount: number) => () => okAnswer({ amount, currency: 'EUR', currencySymbol: '€', amount_minor: Math.round(amount * 100) });

async function payWhenReady() {
  const pay = await screen.findByRole('button', { name: 'Pay €12.50' });
  await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(pay);
}

describe('Buy now dialog', () => {
  it('issue 34: the buyer picks a licence; the price follows it and the purchase names it', async () => {
    const calls = fakeApi({
      'GET /api/balance': balance(100),
      'POST /api/purchase/buy': () => okAnswer({ status: 'Success', order: anOrder({ title: 'Harbour at Dawn', amount: 40 }) }),
    });
    const licences = [
      { tier: 'personal' as const, price: 5 },
      { tier: 'commercial' as const, price: 12.5 },
      { tier: 'extended' as const, price: 40 },
    ];
    const onClose = vi.fn();
    renderWithApp(<BuyDialog product={{ ...product, licences }} onClose={onClose} />, { path: '/products/harbour' });
    const picker = await screen.findByRole('group', { name: 'Licence' });
    // Commercial (the work's price) is picked first; each licence says what it is for and links to its terms.
    const commercial = screen.getByRole('radio', { name: /Commercial licence/ }) as HTMLInputElement;
    expect(commercial.checked).toBe(true);
    expect(picker.textContent).toContain('For merchandise and products made for resale.');
    expect(screen.getAllByRole('link', { name: 'What it permits' }).map((a) => a.getAttribute('href'))).toEqual([
      '/licences/personal',
      '/licences/commercial',
      '/licences/extended',
    ]);
    await waitFor(() => expect(screen.getByTestId('buy-balance-after').textContent).toBe('€87.50'));

    fireEvent.click(screen.getByRole('radio', { name: /Extended licence/ }));
    expect(screen.getByTestId('buy-price').textContent).toBe('€40.00');
    expect(screen.getByTestId('buy-balance-after').textContent).toBe('€60.00');
    fireEvent.click(screen.getByRole('button', { name: 'Pay €40.00' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.path === '/api/purchase/buy')!.body).toEqual({ item_id: 7, licence_tier: 'extended' });
  });

  it('issue 34: a work with one licence shows no picker and buys the commercial licence', async () => {
    const calls = fakeApi({
      'GET /api/balance': balance(20),
      'POST /api/purchase/buy': () => okAnswer({ status: 'Success', order: anOrder({ title: 'Harbour at Dawn', amount: 12.5 }) }),
    });
    renderWithApp(<BuyDialog product={{ ...product, licences: [{ tier: 'commercial', price: 12.5 }] }} onClose={() => {}} />, { path: '/products/harbour' });
    await payWhenReady();
    await waitFor(() => expect(calls.find((c) => c.path === '/api/purchase/buy')?.body).toEqual({ item_id: 7 }));
    expect(screen.queryByRole('group', { name: 'Licence' })).toBeNull();
  });

  it('shows the price, the balance and the balance after, then buys with an Idempotency-Key', async () => {
    const calls = fakeApi({
      'GET /api/balance': balance(20),
      'POST /api/purchase/buy': () => okAnswer({ status: 'Success', order: anOrder({ title: 'Harbour at Dawn', amount: 12.5 }) }),
    });
    const onClose = vi.fn();
    renderWithApp(<BuyDialog product={product} onClose={onClose} />, { path: '/products/harbour' });
    expect(await screen.findByText('Atelier Credits balance')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('buy-balance-after').textContent).toBe('€7.50'));
    expect(screen.getByTestId('buy-balance').textContent).toBe('€20.00');
    fireEvent.click(screen.getByRole('button', { name: 'Pay €12.50' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const buy = calls.find((c) => c.path === '/api/purchase/buy')!;
    expect(buy.body).toMatchObject({ item_id: 7 });
    expect(buy.headers['Idempotency-Key']).toMatch(/.{8,}/);
    // Bought in the currency shown: the order keeps it as the currency it was paid in (issue 18 bug 7).
    expect(buy.headers['X-Currency']).toBe('EUR');
    expect(await screen.findByText('Thank you! Harbour at Dawn is yours.')).toBeTruthy();
  });

  it('issue 33: shows the net, the VAT rate and amount, and the total of the buyer’s country; reverse charge for a business', async () => {
    fakeApi({
      'GET /api/balance': balance(20),
      'GET /api/user/tax': () => okAnswer({ country: 'DE', rate: 19, list_rate: 19, reverse_charge: false, choices: null }),
    });
    renderWithApp(<BuyDialog product={product} onClose={() => {}} />, { path: '/products/harbour' });
    await waitFor(() => expect(screen.getByTestId('tax-net').textContent).toBe('Net€10.50'));
    expect(screen.getByTestId('tax-vat').textContent).toBe('VAT 19 %€2.00');
    expect(screen.getByTestId('tax-total').textContent).toBe('Total€12.50');
  });

  it('issue 33: a French business under reverse charge sees the price without VAT as its total', async () => {
    fakeApi({
      'GET /api/balance': balance(20),
      'GET /api/user/tax': () => okAnswer({ country: 'FR', rate: 0, list_rate: 20, reverse_charge: true, choices: null }),
    });
    renderWithApp(<BuyDialog product={product} onClose={() => {}} />, { path: '/products/harbour' });
    await waitFor(() => expect(screen.getByTestId('tax-total').textContent).toBe('Total€10.42'));
    expect(screen.getByTestId('tax-vat').textContent).toBe('Reverse charge: no VAT charged€0.00');
  });

  it('issue 18 bug 7: a buyer who chose yen sees yen without decimals and buys in yen', async () => {
    localStorage.setItem('selectedCurrency', 'JPY');
    try {
      const calls = fakeApi({
        'GET /api/balance': () => okAnswer({ amount: 4860, currency: 'JPY', currencySymbol: '¥', amount_minor: 3000 }),
        'POST /api/purchase/buy': () => okAnswer({ status: 'Success', order: anOrder({ title: 'Harbour at Dawn', amount: 2025, currencyCode: 'JPY' }) }),
      });
      renderWithApp(<BuyDialog product={{ ...product, price: 2025, currency: 'JPY', currencySymbol: '¥' }} onClose={() => {}} />);
      await waitFor(() => expect(screen.getByTestId('buy-balance-after').textContent).toBe('¥2,835'));
      fireEvent.click(screen.getByRole('button', { name: 'Pay ¥2,025' }));
      await waitFor(() => expect(calls.find((c) => c.path === '/api/purchase/buy')?.headers['X-Currency']).toBe('JPY'));
    } finally {
      localStorage.removeItem('selectedCurrency');
    }
  });

  it('with too little balance offers Add funds for the shortfall, returning to this product', async () => {
    fakeApi({ 'GET /api/balance': balance(5) });
    renderWithApp(<BuyDialog product={product} onClose={() => {}} />, { path: '/products/harbour' });
    expect(await screen.findByText('Your balance is €7.50 short.')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Add €7.50' });
    const url = new URL(link.getAttribute('href')!, 'http://localhost');
    expect(url.pathname).toBe('/deposit/create');
    expect(Object.fromEntries(url.searchParams)).toEqual({ amount: '7.50', return: '/products/harbour', currency: 'EUR' });
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
  });

  it('shows the server’s refusal, or the SPEC fallback for the product type', async () => {
    fakeApi({
      'GET /api/balance': balance(50),
      'POST /api/purchase/pack': () => jsonAnswer(500, {}),
      'POST /api/purchase/buy': () =>
        jsonAnswer(422, { status: 'ERROR', message: 'You already own this product.', errors: { item_id: ['You already own this product.'] } }),
    });
    const { unmount } = renderWithApp(<BuyDialog product={product} onClose={() => {}} />);
    await payWhenReady();
    expect(await screen.findByText('You already own this product.')).toBeTruthy();
    unmount();
    renderWithApp(<BuyDialog product={{ ...product, product_type: 'pack' }} onClose={() => {}} />);
    await payWhenReady();
    expect(await screen.findByText('Failed to purchase pack')).toBeTruthy();
  });
});

describe('a purchase that loses its connection (issue 31)', () => {
  const lost = () => {
    throw new TypeError('Failed to fetch');
  };

  it('looks the order up by the same Idempotency-Key and says "You own it"', async () => {
    const calls = fakeApi({
      'GET /api/balance': balance(20),
      'POST /api/purchase/buy': lost,
      'POST /api/purchase/lookup': () => okAnswer({ outcome: 'bought', order: anOrder({ title: 'Harbour at Dawn', amount: 12.5 }) }),
    });
    renderWithApp(<BuyDialog product={product} onClose={() => {}} />, { path: '/products/harbour' });
    await payWhenReady();
    expect((await screen.findByTestId('buy-owned')).textContent).toContain('You own it');
    expect(screen.queryByText('Failed to purchase product')).toBeNull();
    const sent = calls.find((c) => c.path === '/api/purchase/buy')!.headers['Idempotency-Key'];
    expect(calls.find((c) => c.path === '/api/purchase/lookup')?.body).toEqual({ idempotency_key: sent });
  });

  it('says nothing was charged, and a new try uses a new key', async () => {
    let tries = 0;
    const calls = fakeApi({
      'GET /api/balance': balance(20),
      'POST /api/purchase/buy': () => {
        tries += 1;
        return lost();
      },
      'POST /api/purchase/lookup': () => okAnswer({ outcome: 'not_charged' }),
    });
    renderWithApp(<BuyDialog product={product} onClose={() => {}} />, { path: '/products/harbour' });
    await payWhenReady();
    expect(await screen.findByText('The connection dropped before the purchase: nothing was charged. You can try again.')).toBeTruthy();
    await payWhenReady();
    await waitFor(() => expect(tries).toBe(2));
    const keys = calls.filter((c) => c.path === '/api/purchase/buy').map((c) => c.headers['Idempotency-Key']);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('when even the lookup fails, keeps the key so another try cannot charge twice', async () => {
    const calls = fakeApi({ 'GET /api/balance': balance(20), 'POST /api/purchase/buy': lost, 'POST /api/purchase/lookup': lost });
    renderWithApp(<BuyDialog product={product} onClose={() => {}} />, { path: '/products/harbour' });
    await payWhenReady();
    expect(await screen.findByText(/could not be checked/)).toBeTruthy();
    await payWhenReady();
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/purchase/buy')).toHaveLength(2));
    const keys = calls.filter((c) => c.path === '/api/purchase/buy').map((c) => c.headers['Idempotency-Key']);
    expect(keys[1]).toBe(keys[0]);
  });
});

describe('Buy now dialog: a discount code (issue 34)', () => {
  it('previews the new price, pays it with the code, and says why a code cannot be used', async () => {
    const calls = fakeApi({
      'GET /api/balance': balance(20),
      'GET /api/products/7/price': ({ url }) =>
        url.searchParams.get('discount_code')?.toUpperCase() === 'OLD'
          ? jsonAnswer(422, { status: 'ERROR', message: 'Invalid data.', errors: { discount_code: ['The discount code OLD expired on 2026-11-30.'] } })
          : okAnswer({
              product_id: 7,
              list_price_minor: 1250,
              price_minor: 1000,
              list_price: 12.5,
              price: 10,
              currency: 'EUR',
              discount: { code: 'SPRING-20', automatic: false, kind: 'percent', value: 20, amount_minor: 250, ends_at: null },
            }),
      'POST /api/purchase/buy': () => okAnswer({ status: 'Success', order: anOrder({ title: 'Harbour at Dawn', amount: 10 }) }),
    });
    renderWithApp(<BuyDialog product={product} onClose={() => {}} />, { path: '/products/harbour' });
    const field = await screen.findByLabelText('Discount code');
    fireEvent.change(field, { target: { value: 'old' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('The discount code OLD expired on 2026-11-30.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Discount code'), { target: { value: 'spring-20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect((await screen.findByTestId('discount-applied')).textContent).toContain('Code SPRING-20: €2.50 off');
    await waitFor(() => expect(screen.getByTestId('buy-balance-after').textContent).toBe('€10.00'));
    const pay = await screen.findByRole('button', { name: 'Pay €10.00' });
    fireEvent.click(pay);
    await waitFor(() => expect(calls.find((c) => c.path === '/api/purchase/buy')?.body).toMatchObject({ item_id: 7, discount_code: 'SPRING-20' }));
  });
});
