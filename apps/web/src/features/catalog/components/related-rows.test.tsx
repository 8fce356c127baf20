import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { aProduct } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { RelatedRows } from './related-rows';

afterEach(() => vi.unstubAllGlobals());

const work = (id: number, title: string) => aProduct({ id, slug: `w${id}`, title, author: 'Sofia Marin', price: 5 });

describe('below the buy box', () => {
  it("shows 'More from {creator}' and 'Similar works' as cards, and leaves out an empty row", async () => {
    fakeApi({
      'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: false } }),
      'GET /api/products/aurora/related': () => okAnswer({ more_from: [work(2, 'Citrus Waves'), work(3, 'Glasshouse')], similar: [] }),
    });
    renderWithApp(<RelatedRows slug="aurora" creator="Sofia Marin" />);
    expect(await screen.findByRole('heading', { name: 'More from Sofia Marin' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Citrus Waves' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Similar works' })).toBeNull();
  });
});
