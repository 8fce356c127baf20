import type { AdminOffer, AdminProduct, Offer } from '@atelier/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { ReviewQueue } from './review-queue';

afterEach(() => vi.unstubAllGlobals());

const at = new Date(2026, 10, 20, 9, 30, 5).getTime() / 1000;

function offer(id: number, over: Partial<AdminOffer> = {}): AdminOffer {
  return {
    id,
    title: `Harbour ${id}`,
    description: 'Soft light over the water.',
    doc_type: 'image',
    doc_url: null,
    imageUrl: `/storage/offers/${id}.webp`,
    user_price: 49.9,
    service_price: null,
    currency: 'EUR',
    status: 'pending',
    deal_type: 'buyout',
    status_note: null,
    created_at: at + id,
    tags: [{ name: 'Impressionism' }],
    user: { id: 40 + id, nickname: `ines${id}`, email: `ines${id}@example.com` },
    category_id: 1,
    file_name: `harbour-${id}.png`,
    file_type: 'png',
    product_id: null,
    file_url: `/api/admin/offers/${id}/file?expires=1790000900&signature=sig${id}`,
    events: [{ from: null, to: 'pending', by: 'creator', note: '', at: at + id }],
    ...over,
  };
}

/** What the offer calls answer: the offer without the back office's extras. */
function plain({ user: _u, category_id: _c, file_name: _n, file_type: _t, product_id: _p, file_url: _f, events: _e, ...rest }: AdminOffer): Offer {
  return rest;
}

describe('Review queue', () => {
  it('lists pending offers oldest first with the file, the creator and the history', async () => {
    const calls = fakeApi({ 'GET /api/admin/offers': () => okAnswer([offer(1), offer(2)]) });
    renderWithApp(<ReviewQueue />);
    const cards = await screen.findAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Harbour 1', 'Harbour 2']);
    expect(calls.find((c) => c.path === '/api/admin/offers')).toBeDefined();
    const first = within(cards[0]!);
    expect(first.getByRole('link', { name: 'Download harbour-1.png' }).getAttribute('href')).toBe('/api/admin/offers/1/file?expires=1790000900&signature=sig1');
    expect(first.getByText('@ines1')).toBeTruthy();
    expect(first.getByText('(ines1@example.com)')).toBeTruthy();
    expect(first.getByText('€49.90')).toBeTruthy();
    // Submitted, and the first line of its history.
    expect(first.getAllByText('20.11.2026 09:30:06')).toHaveLength(2);
    expect(first.getByText('History (1)')).toBeTruthy();
    expect(first.getByText('#Impressionism')).toBeTruthy();
  });

  it('makes a counter-offer with a note, or an offer at the creator price', async () => {
    const calls = fakeApi({
      'GET /api/admin/offers': () => okAnswer([offer(1)]),
      'POST /api/admin/offers/1/counter': () => okAnswer(plain(offer(1, { status: 'offer' }))),
    });
    renderWithApp(<ReviewQueue />);
    const form = within(await screen.findByRole('form', { name: 'Make an offer' }));
    fireEvent.change(form.getByLabelText('Our price (EUR)'), { target: { value: '35,50' } });
    fireEvent.change(form.getByLabelText('Note to the creator'), { target: { value: 'We like it.' } });
    fireEvent.click(form.getByRole('button', { name: 'Send counter-offer' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/api/admin/offers/1/counter', body: { service_price: 35.5, note: 'We like it.' } });
    expect(await screen.findByText('Your offer for “Harbour 1” is sent to the creator.')).toBeTruthy();

    fireEvent.click(form.getByRole('button', { name: "Offer the creator's price (€49.90)" }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'POST')[1]!.body).toEqual({ service_price: 49.9, note: 'We like it.' });
  });

  it('declines with a reason as spam, and shows the server refusal', async () => {
    const calls = fakeApi({
      'GET /api/admin/offers': () => okAnswer([offer(1)]),
      'POST /api/admin/offers/1/decline': () => jsonAnswer(409, { status: 'ERROR', message: 'This offer is already declined.' }),
    });
    renderWithApp(<ReviewQueue />);
    const form = within(await screen.findByRole('form', { name: 'Decline' }));
    fireEvent.change(form.getByLabelText('Reason (sent to the creator)'), { target: { value: 'Copied work' } });
    fireEvent.change(form.getByLabelText('Kind'), { target: { value: 'declined' } });
    fireEvent.click(form.getByRole('button', { name: 'Decline' }));
    expect((await form.findByRole('alert')).textContent).toBe('This offer is already declined.');
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/api/admin/offers/1/decline', body: { reason: 'Copied work', status: 'declined' } });
  });

  it('after acceptance sets the list price, category and tags, then publishes', async () => {
    const product: AdminProduct = {
      id: 7,
      slug: 'harbour-3',
      title: 'Harbour 3',
      product_type: 'image',
      status: 'draft',
      price_minor: 3000,
      category_id: null,
      tags: ['Impressionism'],
      description: 'Soft light over the water.',
      author: { id: 43, nickname: 'ines3' },
      platform_owned: true,
    };
    const calls = fakeApi({
      'GET /api/admin/offers': () => okAnswer([offer(3, { status: 'approved', service_price: 30, product_id: 7 })]),
      'GET /api/admin/products/7': () => okAnswer(product),
      'GET /api/categories': () => okAnswer([{ id: 4, parent_id: null, title: 'Landscapes', url: 'landscapes' }]),
      'PATCH /api/admin/products/7': ({ body }) => {
        const { price, ...changes } = body as Pick<AdminProduct, 'category_id' | 'tags' | 'status'> & { price: number };
        return okAnswer({ ...product, ...changes, price_minor: Math.round(price * 100) });
      },
    });
    renderWithApp(<ReviewQueue />);
    fireEvent.change(await screen.findByLabelText('Status'), { target: { value: 'approved' } });
    const form = within(await screen.findByRole('form', { name: 'Publish the product' }));
    expect(form.getByText('Unlisted')).toBeTruthy();
    expect((form.getByLabelText('Tags') as HTMLInputElement).value).toBe('Impressionism');
    fireEvent.change(form.getByLabelText('List price (EUR)'), { target: { value: '59.90' } });
    await form.findByRole('option', { name: 'Landscapes' });
    fireEvent.change(form.getByLabelText('Category'), { target: { value: '4' } });
    fireEvent.change(form.getByLabelText('Tags'), { target: { value: 'harbour, dawn , ' } });
    fireEvent.click(form.getByRole('button', { name: 'Save and publish' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')).toBeDefined());
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ price: 59.9, category_id: 4, tags: ['harbour', 'dawn'], status: 'published' });
    expect(await screen.findByText('“Harbour 3” is published.')).toBeTruthy();
  });

  it('says so when nothing waits', async () => {
    fakeApi({ 'GET /api/admin/offers': () => okAnswer([]) });
    renderWithApp(<ReviewQueue />);
    expect(await screen.findByText('No offers with this status.')).toBeTruthy();
  });

  it('issue 19: a listing is marked as one and approved as it is; a buyout has no such button', async () => {
    let listed = false;
    const calls = fakeApi({
      'GET /api/admin/offers': () => okAnswer(listed ? [offer(2)] : [offer(1, { deal_type: 'listing', user_price: 19.99 }), offer(2)]),
      'POST /api/admin/offers/1/approve': () => {
        listed = true;
        return okAnswer(plain(offer(1, { deal_type: 'listing', status: 'approved' })), { message: 'The work is listed in the shop.' });
      },
    });
    renderWithApp(<ReviewQueue />);
    const [listing, buyout] = await screen.findAllByRole('article');
    expect(within(listing!).getByText('Listing')).toBeTruthy();
    expect(within(buyout!).getByText('Buyout')).toBeTruthy();
    expect(within(buyout!).queryByRole('button', { name: /Approve and list/ })).toBeNull();
    fireEvent.click(within(listing!).getByRole('button', { name: 'Approve and list at €19.99' }));
    expect(await screen.findByText('“Harbour 1” is listed in the shop.')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/admin/offers/1/approve')).toHaveLength(1);
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
  });
});
