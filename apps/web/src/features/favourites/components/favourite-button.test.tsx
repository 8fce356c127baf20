import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { aProfile } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { FavouriteButton } from './favourite-button';

afterEach(() => vi.unstubAllGlobals());

const signedIn = {
  'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
  'GET /api/user/profile': () => okAnswer(aProfile({ surname: 'C' })),
};

describe('the heart', () => {
  it('a guest is sent to sign in with a way back that names the product', async () => {
    fakeApi({ 'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: false } }) });
    const { router } = renderWithApp(<FavouriteButton productId={7} title="Aurora" />, { path: '/products/aurora?sort=x' });
    fireEvent.click(await screen.findByRole('button', { name: 'Add to favourites: Aurora' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/products/aurora?sort=x&favourite=7');
  });

  it('back from sign-in, the pending heart sets itself and leaves the address', async () => {
    let ids: number[] = [];
    const calls = fakeApi({
      ...signedIn,
      'GET /api/favourites/ids': () => okAnswer(ids),
      'POST /api/favourites/7': () => {
        ids = [7];
        return okAnswer({ product_id: 7, favourite: true });
      },
    });
    const { router } = renderWithApp(<FavouriteButton productId={7} title="Aurora" />, { path: '/products/aurora?favourite=7' });
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/favourites/7')).toBe(true));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect((await screen.findByRole('button', { name: 'Remove from favourites: Aurora' })).getAttribute('aria-pressed')).toBe('true');
  });

  it('a signed-in user toggles it off', async () => {
    const calls = fakeApi({
      ...signedIn,
      'GET /api/favourites/ids': () => okAnswer([7]),
      'DELETE /api/favourites/7': () => okAnswer({ product_id: 7, favourite: false }),
    });
    renderWithApp(<FavouriteButton productId={7} title="Aurora" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove from favourites: Aurora' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/favourites/7')).toBe(true));
  });
});
