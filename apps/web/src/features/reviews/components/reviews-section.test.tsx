import type { Review, ReviewsPage } from '@atelier/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { ReviewsSection } from './reviews-section';

afterEach(() => vi.unstubAllGlobals());

const review = (over: Partial<Review> = {}): Review => ({
  id: 1,
  product_id: 7,
  rating: 4,
  text: 'Delivers what it promises.',
  created_at: '2026-11-20T10:00:00.000Z',
  edited_at: null,
  author: { nickname: 'ines', avatar: null },
  reply: null,
  verified_purchase: true,
  refunded: false,
  ...over,
});

type Meta = ReviewsPage['meta'];
const page = (over: { payload?: ReviewsPage['payload'] } & Partial<Meta> = {}): ReviewsPage => {
  const { payload = [review()], ...meta } = over;
  const base: Meta = { total: 1, pages: 1, page: 1, average: 4, counts: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 0 }, mine: null, can_review: false, is_author: false };
  return { status: 'OK', payload, meta: { ...base, ...meta } };
};

describe('reviews on the product page', () => {
  it('lists reviews with stars, the creator’s reply and the average', async () => {
    fakeApi({
      'GET /api/products/7/reviews': () =>
        jsonAnswer(200, page({ payload: [review({ reply: { text: 'Thank you!', created_at: '2026-11-21T10:00:00.000Z' } })] })),
    });
    renderWithApp(<ReviewsSection productId={7} />);
    expect(await screen.findByText('Delivers what it promises.')).toBeTruthy();
    expect(screen.getByRole('img', { name: '4 out of 5 stars' })).toBeTruthy();
    expect(screen.getByText('Thank you!')).toBeTruthy();
    expect(screen.getByText('Reply from the creator')).toBeTruthy();
    expect(screen.getByRole('heading', { name: /Reviews · 4.0 ★ · 1 review/ })).toBeTruthy();
    expect(screen.queryByTestId('review-form')).toBeNull();
  });

  it('marks a verified purchase, and a review whose purchase was refunded (issue 31)', async () => {
    fakeApi({
      'GET /api/products/7/reviews': () =>
        jsonAnswer(
          200,
          page({
            payload: [review(), review({ id: 2, text: 'Did not open.', author: { nickname: 'leo', avatar: null }, verified_purchase: false, refunded: true })],
            total: 2,
            average: 3,
            counts: { 1: 0, 2: 1, 3: 0, 4: 1, 5: 0 },
          }),
        ),
    });
    renderWithApp(<ReviewsSection productId={7} />);
    const [kept, refunded] = await screen.findAllByTestId('review');
    expect(kept!.textContent).toContain('Verified purchase');
    expect(kept!.textContent).not.toContain('Refunded');
    expect(refunded!.textContent).toContain('Refunded');
    expect(refunded!.textContent).not.toContain('Verified purchase');
  });

  it('a buyer picks stars and publishes; a missing rating is said at the field', async () => {
    let sent: unknown;
    const calls = fakeApi({
      'GET /api/products/7/reviews': () =>
        jsonAnswer(200, page({ payload: [], total: 0, pages: 0, page: 1, average: 0, counts: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 }, can_review: true })),
      'POST /api/products/7/reviews': ({ body }) => {
        sent = body;
        return jsonAnswer(200, { status: 'OK', payload: review({ rating: 5 }) });
      },
    });
    renderWithApp(<ReviewsSection productId={7} />);
    const submit = await screen.findByRole('button', { name: 'Publish review' });
    fireEvent.click(submit);
    expect(await screen.findByText('Please choose a rating from 1 to 5 stars.')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('5 out of 5 stars'));
    fireEvent.change(screen.getByLabelText('Your review (optional)'), { target: { value: 'Excellent.' } });
    fireEvent.click(submit);
    await waitFor(() => expect(sent).toEqual({ rating: 5, text: 'Excellent.' }));
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/products/7/reviews')).toBe(true);
  });

  it('the product’s author gets a reply form under an unanswered review', async () => {
    let sent: unknown;
    fakeApi({
      'GET /api/products/7/reviews': () => jsonAnswer(200, page({ is_author: true })),
      'POST /api/reviews/1/reply': ({ body }) => {
        sent = body;
        return okAnswer(review({ reply: { text: 'Thanks', created_at: '2026-11-21T10:00:00.000Z' } }));
      },
    });
    renderWithApp(<ReviewsSection productId={7} />);
    fireEvent.change(await screen.findByLabelText('Reply'), { target: { value: 'Thanks' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(sent).toEqual({ text: 'Thanks' }));
  });

  it('sorts by highest rated on request', async () => {
    const asked: string[] = [];
    fakeApi({
      'GET /api/products/7/reviews': ({ url }) => {
        asked.push(url.searchParams.get('sort') ?? '');
        return jsonAnswer(
          200,
          page({
            payload: [review(), review({ id: 2, rating: 2 })],
            total: 2,
            average: 3,
            counts: { 1: 0, 2: 1, 3: 0, 4: 1, 5: 0 },
          }),
        );
      },
    });
    renderWithApp(<ReviewsSection productId={7} />);
    fireEvent.change(await screen.findByLabelText('Sort reviews'), { target: { value: 'highest' } });
    await waitFor(() => expect(asked).toContain('highest'));
  });

  it('issue 31: the reader’s own review shows once, with Edit and without Report', async () => {
    const own = review({ id: 5, text: 'My own words.', author: { nickname: 'me', avatar: null } });
    fakeApi({
      'GET /api/products/7/reviews': () => jsonAnswer(200, page({ payload: [own, review()], mine: own, total: 2, counts: { 1: 0, 2: 0, 3: 0, 4: 2, 5: 0 } })),
    });
    renderWithApp(<ReviewsSection productId={7} />);
    expect(await screen.findByText('Delivers what it promises.')).toBeTruthy();
    expect(screen.getAllByText('My own words.')).toHaveLength(1);
    // One Report: the other buyer's review.
    expect(screen.getAllByRole('button', { name: 'Report' })).toHaveLength(1);
    expect(screen.getAllByTestId('review').map((r) => r.textContent)).not.toContain(expect.stringContaining('My own words.'));
  });
});
