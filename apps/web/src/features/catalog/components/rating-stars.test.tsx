import type { ProductBase } from '@atelier/shared';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { aProduct, aProductDetails } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { ProductCard } from './product-card';
import { ProductDetails } from './product-details';

afterEach(() => vi.unstubAllGlobals());

const card = (over: Partial<ProductBase>) => aProduct({ price: 12, rating_average: 4.5, rating_count: 12, ...over });

describe('a product card', () => {
  it('shows the stars with the average and the count, and a heart', async () => {
    fakeApi({ 'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: false } }) });
    renderWithApp(<ProductCard product={card({})} />);
    expect(screen.getByRole('img', { name: 'Rated 4.5 out of 5 from 12 reviews' })).toBeTruthy();
    expect(screen.getByText('4.5')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add to favourites: Aurora' })).toBeTruthy();
  });

  it('shows no stars before a first review', () => {
    fakeApi({ 'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: false } }) });
    renderWithApp(<ProductCard product={card({ rating_average: 0, rating_count: 0 })} />);
    expect(screen.queryByTestId('rating')).toBeNull();
  });

  it('a product page links to its reviews only once the work is rated: no link without a name before (issue 20)', () => {
    fakeApi({ 'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: false } }) });
    const page = (over: Partial<ProductBase>) => {
      const data = aProductDetails({ ...card(over), items: [] });
      return <ProductDetails query={{ isPending: false, isError: false, error: null, data, refetch: () => undefined }} />;
    };
    const unrated = renderWithApp(page({ rating_average: 0, rating_count: 0 }));
    expect(document.querySelector('a[href="#reviews"]')).toBeNull();
    for (const link of screen.getAllByRole('link')) expect(link.textContent?.trim() || link.getAttribute('aria-label')).toBeTruthy();
    unrated.unmount();
    renderWithApp(page({}));
    expect(screen.getByRole('link', { name: 'Rated 4.5 out of 5 from 12 reviews' }).getAttribute('href')).toBe('#reviews');
  });
});
