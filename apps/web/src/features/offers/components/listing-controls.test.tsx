import type { Offer } from '@atelier/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { offerFixture } from '../testing/fixtures';
import { MyProjects } from './my-projects';

afterEach(() => vi.unstubAllGlobals());

/** The creator's offers as the server keeps them: each call moves the one listing as the server would. */
function listingServer(start: Offer) {
  let current = start;
  const calls = fakeApi({
    'GET /api/offer/history': () => okAnswer([current]),
    [`PATCH /api/offer/${start.id}/listing`]: ({ body }) => {
      const price = (body as { price: number }).price;
      const review = Math.abs(price - current.service_price!) * 2 > current.service_price!;
      current = { ...current, user_price: price, status: review ? 'pending' : current.status };
      return okAnswer(current, { message: review ? 'Your work is hidden until we review it again.' : 'The new price is saved.' });
    },
    [`POST /api/offer/${start.id}/unlist`]: () => {
      current = { ...current, status: 'unlisted' };
      return okAnswer(current, { message: 'Your work is no longer listed in the shop.' });
    },
    [`POST /api/offer/${start.id}/relist`]: () => {
      current = { ...current, status: 'approved' };
      return okAnswer(current, { message: 'Your work is listed in the shop again.' });
    },
  });
  return calls;
}

const listing = offerFixture({ id: 4, deal_type: 'listing', status: 'approved', user_price: 40, service_price: 40 });

async function openListing() {
  renderWithApp(<MyProjects />);
  fireEvent.click(await screen.findByRole('button', { name: 'View Harbour at Dawn' }));
  return screen.findByRole('dialog', { name: 'Offer details' });
}

describe('Listing management in My projects (issue 19)', () => {
  it('an approved listing shows it is live, takes a new price, and is unlisted and listed again; no payout button', async () => {
    const calls = listingServer(listing);
    const details = await openListing();
    expect(within(details).getByText('Your work is listed in the shop. You earn your share of each sale.')).toBeTruthy();
    expect(within(details).queryByRole('button', { name: 'Enter payment details' })).toBeNull();

    const price = within(details).getByLabelText('Price in the shop (€)') as HTMLInputElement;
    expect(price.value).toBe('40.00');
    fireEvent.change(price, { target: { value: '55' } });
    expect(within(details).queryByRole('note')).toBeNull();
    fireEvent.click(within(details).getByRole('button', { name: 'Save price' }));
    expect(await screen.findByText('The new price is saved.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ path: '/api/offer/4/listing', body: { price: 55 } });

    fireEvent.click(within(details).getByRole('button', { name: 'Unlist' }));
    expect(await within(details).findByText('Your work is not listed in the shop right now.')).toBeTruthy();
    expect(within(details).getByText('Not listed')).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'List again' }));
    expect(await within(details).findByText('Your work is listed in the shop. You earn your share of each sale.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/offer/4/unlist', '/api/offer/4/relist']);
  });

  it('warns before a price more than 50% away, and after saving the listing is back in review', async () => {
    listingServer(listing);
    const details = await openListing();
    const price = within(details).getByLabelText('Price in the shop (€)');
    fireEvent.change(price, { target: { value: '61' } });
    expect(within(details).getByRole('note').textContent).toBe(
      'This is more than 50% away from the approved price of €40.00: your work will be hidden until we review it again.',
    );
    fireEvent.click(within(details).getByRole('button', { name: 'Save price' }));
    await waitFor(() => expect(within(details).getByText('Pending')).toBeTruthy());
    expect(within(details).queryByTestId('listing-controls')).toBeNull();
  });

  it('shows a bad price and the server’s refusal under the field', async () => {
    fakeApi({
      'GET /api/offer/history': () => okAnswer([listing]),
      'PATCH /api/offer/4/listing': () =>
        jsonAnswer(422, { status: 'ERROR', message: 'The price may be at most 1000000.', errors: { price: ['The price may be at most 1000000.'] } }),
    });
    const details = await openListing();
    const price = within(details).getByLabelText('Price in the shop (€)');
    fireEvent.change(price, { target: { value: 'abc' } });
    fireEvent.click(within(details).getByRole('button', { name: 'Save price' }));
    expect((await within(details).findByText('Please enter a valid price.')).className).toContain('field-error');
    fireEvent.change(price, { target: { value: '2000000' } });
    fireEvent.click(within(details).getByRole('button', { name: 'Save price' }));
    expect((await within(details).findByText('The price may be at most 1000000.')).className).toContain('field-error');
  });

  it('issue 34: the creator prices the personal and extended licences; a refused one shows under its field', async () => {
    const calls = fakeApi({
      'GET /api/offer/history': () => okAnswer([{ ...listing, personal_price: 10, extended_price: null }]),
      'PATCH /api/offer/4/listing': ({ body }) =>
        (body as { extended_price: number | null }).extended_price === 30
          ? jsonAnswer(422, {
              status: 'ERROR',
              message: 'The extended licence must cost more than the commercial licence (the price).',
              errors: { extended_price: ['The extended licence must cost more than the commercial licence (the price).'] },
            })
          : okAnswer({ ...listing, personal_price: null, extended_price: 120 }, { message: 'The new price is saved.' }),
    });
    const details = await openListing();
    const personal = within(details).getByLabelText('Personal licence price (€)') as HTMLInputElement;
    const extended = within(details).getByLabelText('Extended licence price (€)') as HTMLInputElement;
    expect(personal.value).toBe('10.00');
    expect(extended.value).toBe('');
    fireEvent.change(extended, { target: { value: '30' } });
    fireEvent.click(within(details).getByRole('button', { name: 'Save price' }));
    expect((await within(details).findByText('The extended licence must cost more than the commercial licence (the price).')).className).toContain(
      'field-error',
    );
    fireEvent.change(personal, { target: { value: '' } });
    fireEvent.change(extended, { target: { value: '120' } });
    fireEvent.click(within(details).getByRole('button', { name: 'Save price' }));
    expect(await screen.findByText('The new price is saved.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PATCH').at(-1)!.body).toEqual({ price: 40, personal_price: null, extended_price: 120 });
  });

  it('a suggested list price is explained as a listing, and accepting it does not ask for payment details', async () => {
    let current = offerFixture({ id: 4, deal_type: 'listing', status: 'offer', user_price: 50, service_price: 40 });
    fakeApi({
      'GET /api/offer/history': () => okAnswer([current]),
      'POST /api/offer/approve': () => {
        current = { ...current, status: 'approved' };
        return okAnswer(current, { message: 'Your work is listed in the shop.' });
      },
    });
    const details = await openListing();
    expect(within(details).getByText('We suggest listing your work at €40.00.')).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Accept' }));
    expect(await within(details).findByTestId('listing-controls')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Contact details' })).toBeNull();
  });
});
