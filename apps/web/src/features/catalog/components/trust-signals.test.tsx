import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { aProduct, aProductDetails } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { FileDetails, formatBytes, PackSaving, SalesCount } from './trust-signals';

afterEach(() => vi.unstubAllGlobals());

const currencies = () => okAnswer([{ code: 'EUR', symbol: '€', value: 1, default: true, name: 'EUR', decimals: 2 }]);
const rows = () =>
  Object.fromEntries(
    [...screen.getByTestId('file-details').querySelectorAll('div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]),
  );

describe('trust signals on the product page (issue 31)', () => {
  it('"n sold" only after the first sale', async () => {
    fakeApi({});
    const { unmount } = renderWithApp(<SalesCount count={0} />);
    expect(screen.queryByTestId('sales-count')).toBeNull();
    unmount();
    renderWithApp(<SalesCount count={12} />);
    expect((await screen.findByTestId('sales-count')).textContent).toBe('12 sold');
  });

  it('a text says its pages or words, a prompt its model; sizes read as people say them', async () => {
    fakeApi({});
    const { unmount } = renderWithApp(<FileDetails file={{ format: 'PDF', bytes: 830_000, pages: 12 }} />);
    await screen.findByTestId('file-details');
    expect(rows()).toEqual({ Format: 'PDF', Pages: '12', 'File size': '830 KB' });
    unmount();
    renderWithApp(<FileDetails file={{ format: 'TXT', bytes: 512, words: 1234, model: 'Midjourney' }} />);
    await screen.findByTestId('file-details');
    expect(rows()).toEqual({ Format: 'TXT', Words: '1,234', 'Written for': 'Midjourney', 'File size': '512 B' });
    expect(formatBytes(12_345_678, 'de')).toBe('12,3 MB');
  });

  it('a pack shows what it saves against its works bought one by one; nothing when it saves nothing', async () => {
    fakeApi({ 'GET /api/currencies': currencies });
    const items = [aProduct({ id: 1, price: 12.5 }), aProduct({ id: 2, price: 10 }), aProduct({ id: 3, price: 7.5 })];
    const { unmount } = renderWithApp(<PackSaving product={aProductDetails({ product_type: 'pack', price: 24, items })} />);
    await vi.waitFor(() => expect(screen.getByTestId('pack-saving').textContent).toBe('You save €6.00 (20 %) against 3 works bought one by one: €30.00'));
    unmount();
    renderWithApp(<PackSaving product={aProductDetails({ product_type: 'pack', price: 30, items })} />);
    expect(screen.queryByTestId('pack-saving')).toBeNull();
  });

  it("a creator's bundle: the saving as the server computed it (issue 34), and none when the server says there is none", async () => {
    fakeApi({ 'GET /api/currencies': currencies });
    const items = [aProduct({ id: 1, price: 12.5 }), aProduct({ id: 2, price: 10 }), aProduct({ id: 3, price: 7.5 })];
    // 2.99 of 30.00 is 9.97 %: the server rounds down, so the page never claims the 10 % it does not give.
    const { unmount } = renderWithApp(
      <PackSaving product={aProductDetails({ product_type: 'pack', price: 27.01, items, saving: { items_price: 30, amount: 2.99, percent: 9 } })} />,
    );
    await vi.waitFor(() => expect(screen.getByTestId('pack-saving').textContent).toBe('You save €2.99 (9 %) against 3 works bought one by one: €30.00'));
    unmount();
    renderWithApp(<PackSaving product={aProductDetails({ product_type: 'pack', price: 20, items, saving: null })} />);
    expect(screen.queryByTestId('pack-saving')).toBeNull();
  });
});
