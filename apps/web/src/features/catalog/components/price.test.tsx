import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { Price } from './price';

afterEach(() => vi.unstubAllGlobals());

const currencies = () =>
  okAnswer([
    { code: 'EUR', symbol: '€', value: 1, default: true, name: 'EUR', decimals: 2 },
    { code: 'JPY', symbol: 'JP¥', value: 162, default: false, name: 'JPY', decimals: 0 },
    { code: 'CRD', symbol: '✦', value: 10, default: false, name: 'Credits', decimals: 1 },
  ]);

describe('Price (issue 18)', () => {
  it('shows the symbol staff set and the currency’s decimals from the site’s list, with thousands separated', async () => {
    fakeApi({ 'GET /api/currencies': currencies });
    renderWithApp(
      <>
        <Price amount={1234567} currency="JPY" />
        <Price amount={-1234.5} currency="EUR" />
        <Price amount={1234.5} currency="CRD" />
      </>,
    );
    // The site's symbol (JP¥, not Intl's ¥) where English puts it; a code Intl does not know: the number, then the symbol.
    await vi.waitFor(() => expect(screen.getAllByTestId('price').map((p) => p.textContent)).toEqual(['JP¥1,234,567', '-€1,234.50', '1,234.5\u00a0✦']));
    // The symbol is an element of its own, for its style.
    expect(screen.getAllByTestId('price')[0]!.querySelector('.price-symbol')?.textContent).toBe('JP¥');
  });

  it('an answer’s own symbol wins over the list’s', async () => {
    fakeApi({ 'GET /api/currencies': currencies });
    renderWithApp(<Price amount={5} currency={{ code: 'EUR', symbol: 'EUR' }} />);
    await vi.waitFor(() => expect(screen.getByTestId('price').textContent).toBe('EUR\u00a05.00'));
  });
});
