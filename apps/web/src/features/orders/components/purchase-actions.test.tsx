import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { anOrder, aProduct, aProductDetails, aProfile } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { PurchaseActions } from './purchase-actions';

afterEach(() => vi.unstubAllGlobals());

const product = aProduct({
  id: 30,
  slug: 'starter-pack',
  title: 'Starter Pack',
  product_type: 'pack',
  price: 29,
});

const signedIn = {
  'GET /api/is-auth': () =>
    new Response(JSON.stringify({ status: 'OK', payload: { authenticated: true } }), { headers: { 'content-type': 'application/json' } }),
  'GET /api/user/profile': () => okAnswer(aProfile({ surname: 'C' })),
};

describe('product buy box', () => {
  it('a guest is sent to sign in, with the way back', async () => {
    fakeApi({
      'GET /api/is-auth': () =>
        new Response(JSON.stringify({ status: 'OK', payload: { authenticated: false } }), { headers: { 'content-type': 'application/json' } }),
    });
    renderWithApp(<PurchaseActions product={product} />, { path: '/packs/starter-pack' });
    const buy = await screen.findByRole('link', { name: 'Buy now' });
    expect(buy.getAttribute('href')).toBe('/login?redirect=%2Fpacks%2Fstarter-pack');
  });

  it('an owner sees You own this with a download per item of the pack', async () => {
    fakeApi({
      ...signedIn,
      'GET /api/purchase/owned': () =>
        okAnswer({
          owned: true,
          order_id: 9,
          downloads: [
            { product_id: 31, title: 'Cold Email', url: '/api/user/media/download?id=9&product_id=31' },
            { product_id: 32, title: 'Logo Ideas', url: '/api/user/media/download?id=9&product_id=32' },
          ],
          download_all_url: '/api/user/media/download-pack?pack_id=30',
        }),
    });
    renderWithApp(
      <PurchaseActions product={product}>
        <button type="button">Add to cart</button>
      </PurchaseActions>,
    );
    expect(await screen.findByText('You own this')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download Cold Email' }).getAttribute('data-download-url')).toBe('/api/user/media/download?id=9&product_id=31');
    expect(screen.getByRole('button', { name: 'Download Logo Ideas' })).toBeTruthy();
    // Issue 31 item 7: the whole pack as one ZIP, first.
    const all = screen.getByRole('button', { name: 'Download all (ZIP)' });
    expect(all.getAttribute('data-download-url')).toBe('/api/user/media/download-pack?pack_id=30');
    expect(screen.getAllByRole('button')[0]).toBe(all);
    expect(screen.queryByRole('button', { name: 'Buy now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add to cart' })).toBeNull();
  });

  it('a buyer who does not own it gets Buy now and the extra actions; the author gets neither', async () => {
    fakeApi({ ...signedIn, 'GET /api/purchase/owned': () => okAnswer({ owned: false, order_id: null, downloads: [] }) });
    const { unmount } = renderWithApp(
      <PurchaseActions product={product}>
        <button type="button">Add to cart</button>
      </PurchaseActions>,
    );
    expect(await screen.findByRole('button', { name: 'Buy now' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add to cart' })).toBeTruthy();
    unmount();
    renderWithApp(<PurchaseActions product={{ ...product, authorNickname: 'ines' }} />);
    expect(await screen.findByText('This is your own work.')).toBeTruthy();
  });

  it('issue 34: the owner of the personal licence sees it, downloads it with LICENCE.txt, and upgrades for the difference', async () => {
    const calls = fakeApi({
      ...signedIn,
      'GET /api/purchase/owned': () =>
        okAnswer({
          owned: true,
          order_id: 9,
          licence_tier: 'personal',
          downloads: [{ product_id: 40, title: 'Harbour', url: '/api/user/media/download?id=9&product_id=40' }],
        }),
      'POST /api/purchase/upgrade': () => okAnswer({ status: 'Success', order: anOrder({ title: 'Harbour', amount: 52 }) }),
    });
    const image = aProductDetails({
      id: 40,
      slug: 'starter-pack',
      title: 'Harbour',
      price: 20,
      licences: [
        { tier: 'personal', price: 8 },
        { tier: 'commercial', price: 20 },
        { tier: 'extended', price: 60 },
      ],
    });
    renderWithApp(<PurchaseActions product={image} />, { path: '/products/harbour' });
    const licence = await screen.findByRole('link', { name: 'Your licence: Personal licence' });
    expect(licence.getAttribute('href')).toBe('/licences/personal');
    const zip = screen.getByRole('button', { name: 'Download with LICENCE.txt (ZIP)' });
    expect(zip.getAttribute('data-download-url')).toBe('/api/user/media/download?id=9&product_id=40&format=zip');
    expect(screen.getByRole('button', { name: 'Upgrade to Commercial licence for €12.00' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Upgrade to Extended licence for €52.00' }));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/purchase/upgrade')?.body).toEqual({ product_id: 40, licence_tier: 'extended' }));
    expect(await screen.findByText('Your licence is now: Extended licence.')).toBeTruthy();
  });
});
