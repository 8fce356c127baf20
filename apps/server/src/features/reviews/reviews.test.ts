import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { fund, seededProducts } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { auditLog, notifications, orders, products, reviews } from '../../db/schema';

const t = useTestApp({
  seed: true,
  web: { 'dist/index.html': '<!doctype html><html><head><title>Atelier</title></head><body><div id="root"></div></body></html>' },
  env: { PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' },
});

let productIndex = 0;
/** A seeded image whose author is a fresh, signed-in creator; each call takes another product. */
async function creatorProduct() {
  const images = await seededProducts(t.app, 'image');
  const product = images[productIndex++]!;
  const creator = await registerPerson(t.app);
  await t.app.db.update(products).set({ authorId: creator.id }).where(eq(products.id, product.id));
  return { product, creator };
}

/** A new user who bought the product. */
async function buyer(productId: number, priceMinor: number) {
  const person = await registerPerson(t.app);
  await fund(t.app, person.id, priceMinor);
  const res = await person.client.post('/api/purchase/buy', { item_id: productId });
  expect(res.statusCode).toBe(200);
  return person;
}

const catalogEntry = async (productId: number) => {
  const list = (await new TestClient(t.app).get('/api/products/catalog?limit=48&product_type=image')).json().payload as { id: number }[];
  return list.find((p) => p.id === productId) as { rating_average: number; rating_count: number } | undefined;
};
/**
 * The catalogue's answer is cached per app server and dropped by the change feed: on PostgreSQL the
 * notice arrives a moment after the commit, as it would on another server, so the answer is awaited.
 */
const expectCatalog = (productId: number, expected: { rating_average: number | null; rating_count: number }) =>
  vi.waitFor(async () => expect(await catalogEntry(productId)).toMatchObject(expected), { timeout: 3000, interval: 50 });

describe('reviews', () => {
  it('only a buyer may review: a guest gets 401, a non-buyer 403 with the message, a buyer the review', async () => {
    const { product, creator } = await creatorProduct();
    const body = { rating: 4, text: 'Delivers what it promises.' };
    expect((await new TestClient(t.app).post(`/api/products/${product.id}/reviews`, body)).statusCode).toBe(401);
    const stranger = await registerPerson(t.app);
    const refused = await stranger.client.post(`/api/products/${product.id}/reviews`, body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only buyers of this work can review it.');

    const b = await buyer(product.id, Number(product.priceMinor));
    const res = await b.client.post(`/api/products/${product.id}/reviews`, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'OK', payload: { rating: 4, text: 'Delivers what it promises.', edited_at: null, reply: null } });
    expect(res.json().payload.author.nickname).toEqual(expect.any(String));

    // The creator hears of it.
    const bell = (await creator.client.get('/api/notifications')).json().payload;
    expect(bell[0]).toMatchObject({ kind: 'review_received' });
    expect(bell[0].text).toContain('4 of 5');

    // The aggregate shows on the catalogue, the product info and the list.
    await expectCatalog(product.id, { rating_average: 4, rating_count: 1 });
    const info = (await new TestClient(t.app).get(`/api/products/${product.slug}/info`)).json().payload;
    expect(info).toMatchObject({ rating_average: 4, rating_count: 1 });
    const list = (await new TestClient(t.app).get(`/api/products/${product.id}/reviews`)).json();
    expect(list.payload).toHaveLength(1);
    expect(list.meta).toMatchObject({ total: 1, pages: 1, average: 4, counts: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 0 } });
  });

  it('a buyer whose order is no longer successful (refunded) may not review', async () => {
    const { product } = await creatorProduct();
    const b = await buyer(product.id, Number(product.priceMinor));
    // Orders have no refunded state yet; any status but success takes the right away.
    await t.app.db.update(orders).set({ status: 'failed' }).where(eq(orders.buyerId, b.id));
    const res = await b.client.post(`/api/products/${product.id}/reviews`, { rating: 5 });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Only buyers of this work can review it.');
  });

  it('one review per buyer: the second is a 409 that says to edit instead', async () => {
    const { product } = await creatorProduct();
    const b = await buyer(product.id, Number(product.priceMinor));
    expect((await b.client.post(`/api/products/${product.id}/reviews`, { rating: 5 })).statusCode).toBe(200);
    const again = await b.client.post(`/api/products/${product.id}/reviews`, { rating: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already reviewed/);
    await expectCatalog(product.id, { rating_average: 5, rating_count: 1 });
  });

  it('refuses bad input with messages per field', async () => {
    const { product } = await creatorProduct();
    const b = await buyer(product.id, Number(product.priceMinor));
    const res = await b.client.post(`/api/products/${product.id}/reviews`, { rating: 6, text: 'x'.repeat(2001) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.rating[0]).toBe('Please choose a rating from 1 to 5 stars.');
    expect(res.json().errors.text[0]).toBe('The review may have at most 2000 characters.');
    expect((await b.client.get(`/api/products/${product.id}/reviews?sort=best`)).statusCode).toBe(422);
  });

  it('the author edits and deletes within 30 days; another user cannot; the aggregate follows', async () => {
    const { product } = await creatorProduct();
    const a = await buyer(product.id, Number(product.priceMinor));
    const b = await buyer(product.id, Number(product.priceMinor));
    const id = (await a.client.post(`/api/products/${product.id}/reviews`, { rating: 2 })).json().payload.id;
    await b.client.post(`/api/products/${product.id}/reviews`, { rating: 5 });
    await expectCatalog(product.id, { rating_average: 3.5, rating_count: 2 });

    const foreignEdit = await b.client.put(`/api/reviews/${id}`, { rating: 1 });
    expect(foreignEdit.statusCode).toBe(403);
    expect((await b.client.delete(`/api/reviews/${id}`)).statusCode).toBe(403);

    const edited = await a.client.put(`/api/reviews/${id}`, { rating: 4, text: 'Better on a second look.' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().payload).toMatchObject({ rating: 4, text: 'Better on a second look.' });
    expect(edited.json().payload.edited_at).not.toBeNull();
    await expectCatalog(product.id, { rating_average: 4.5, rating_count: 2 });

    // Past 30 days the review stays as it is.
    await t.app.db
      .update(reviews)
      .set({ createdAt: new Date(Date.now() - 31 * 24 * 3600 * 1000) })
      .where(eq(reviews.id, id));
    const late = await a.client.put(`/api/reviews/${id}`, { rating: 1 });
    expect(late.statusCode).toBe(403);
    expect(late.json().message).toMatch(/30 days/);
    await t.app.db.update(reviews).set({ createdAt: new Date() }).where(eq(reviews.id, id));

    expect((await a.client.delete(`/api/reviews/${id}`)).statusCode).toBe(200);
    await expectCatalog(product.id, { rating_average: 5, rating_count: 1 });
    expect((await a.client.delete(`/api/reviews/${id}`)).statusCode).toBe(404);
  });

  it('the product author replies once; anyone else is refused; the reviewer is told', async () => {
    const { product, creator } = await creatorProduct();
    const b = await buyer(product.id, Number(product.priceMinor));
    const id = (await b.client.post(`/api/products/${product.id}/reviews`, { rating: 3, text: 'Fine.' })).json().payload.id;

    const stranger = await registerPerson(t.app);
    const notAuthor = await stranger.client.post(`/api/reviews/${id}/reply`, { text: 'Thanks!' });
    expect(notAuthor.statusCode).toBe(403);
    expect(notAuthor.json().message).toBe('Only the author of this work may reply to its reviews.');
    expect((await b.client.post(`/api/reviews/${id}/reply`, { text: 'Me too' })).statusCode).toBe(403);
    expect((await creator.client.post(`/api/reviews/${id}/reply`, { text: '' })).statusCode).toBe(422);

    const replied = await creator.client.post(`/api/reviews/${id}/reply`, { text: 'Thank you for the review.' });
    expect(replied.statusCode).toBe(200);
    expect(replied.json().payload.reply.text).toBe('Thank you for the review.');
    const twice = await creator.client.post(`/api/reviews/${id}/reply`, { text: 'Again' });
    expect(twice.statusCode).toBe(409);

    const bell = (await b.client.get('/api/notifications')).json().payload;
    expect(bell[0]).toMatchObject({ kind: 'review_replied' });
    const list = (await new TestClient(t.app).get(`/api/products/${product.id}/reviews`)).json();
    expect(list.payload[0].reply.text).toBe('Thank you for the review.');

    // The author's reader flags: may reply, may not review.
    const asAuthor = (await creator.client.get(`/api/products/${product.id}/reviews`)).json();
    expect(asAuthor).toMatchObject({ meta: { is_author: true, can_review: false, mine: null } });
    const asBuyer = (await b.client.get(`/api/products/${product.id}/reviews`)).json();
    expect(asBuyer).toMatchObject({ meta: { is_author: false, can_review: false } });
    expect(asBuyer.meta.mine.id).toBe(id);
  });

  it('anyone signed in reports; staff hide with a reason (audited), and hidden reviews leave the list and the average', async () => {
    const { product } = await creatorProduct();
    const a = await buyer(product.id, Number(product.priceMinor));
    const b = await buyer(product.id, Number(product.priceMinor));
    const spam = (await a.client.post(`/api/products/${product.id}/reviews`, { rating: 1, text: 'spam spam' })).json().payload.id;
    await b.client.post(`/api/products/${product.id}/reviews`, { rating: 5 });
    await expectCatalog(product.id, { rating_average: 3, rating_count: 2 });

    expect((await new TestClient(t.app).post(`/api/reviews/${spam}/report`, {})).statusCode).toBe(401);
    const reporter = await registerPerson(t.app);
    const reported = await reporter.client.post(`/api/reviews/${spam}/report`, { reason: 'Spam' });
    expect(reported.statusCode).toBe(200);
    expect((await reporter.client.post(`/api/reviews/${spam}/report`, { reason: 'Spam' })).statusCode).toBe(200);

    expect((await reporter.client.post(`/api/admin/reviews/${spam}/hide`, { reason: 'Spam' })).statusCode).toBe(403);
    const staff = await registerStaff(t.app);
    expect((await staff.client.post(`/api/admin/reviews/${spam}/hide`, {})).statusCode).toBe(422);
    const hidden = await staff.client.post(`/api/admin/reviews/${spam}/hide`, { reason: 'Spam' });
    expect(hidden.statusCode).toBe(200);
    expect((await staff.client.post(`/api/admin/reviews/${spam}/hide`, { reason: 'Spam' })).statusCode).toBe(409);

    await expectCatalog(product.id, { rating_average: 5, rating_count: 1 });
    const list = (await new TestClient(t.app).get(`/api/products/${product.id}/reviews`)).json();
    expect(list.payload.map((r: { id: number }) => r.id)).not.toContain(spam);
    expect(list.meta).toMatchObject({ total: 1, average: 5, counts: { 1: 0, 5: 1 } });
    const [audit] = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectType, 'review'));
    expect(audit).toMatchObject({ action: 'review.hide', subjectId: spam, staffId: staff.id });

    // Editing the hidden review does not bring its stars back.
    await a.client.put(`/api/reviews/${spam}`, { rating: 2 });
    await expectCatalog(product.id, { rating_average: 5, rating_count: 1 });
  });

  it('lists newest, highest and lowest first, paged by 10', async () => {
    const { product } = await creatorProduct();
    const ratings = [3, 5, 1, 4, 2, 5, 4, 3, 2, 1, 5];
    for (const rating of ratings) {
      const b = await buyer(product.id, Number(product.priceMinor));
      expect((await b.client.post(`/api/products/${product.id}/reviews`, { rating })).statusCode).toBe(200);
    }
    const get = async (q: string) => (await new TestClient(t.app).get(`/api/products/${product.id}/reviews?${q}`)).json();
    const highest = await get('sort=highest');
    expect(highest.payload).toHaveLength(10);
    expect(highest.payload.map((r: { rating: number }) => r.rating)).toEqual([5, 5, 5, 4, 4, 3, 3, 2, 2, 1]);
    expect(highest.meta).toMatchObject({ total: 11, pages: 2, average: 3.2, counts: { 1: 2, 2: 2, 3: 2, 4: 2, 5: 3 } });
    expect((await get('sort=lowest&page=2')).payload.map((r: { rating: number }) => r.rating)).toEqual([5]);
    expect((await get('sort=newest')).payload[0].rating).toBe(5);

    // The catalogue sorts by rating: this product (3.2) comes after the 5-star ones from earlier tests.
    const sorted = (await new TestClient(t.app).get('/api/products/catalog?sort=rating~desc&product_type=image&limit=48')).json().payload as {
      id: number;
      rating_average: number;
      rating_count: number;
    }[];
    const rated = sorted.filter((p) => p.rating_count > 0).map((p) => p.rating_average);
    expect(rated).toEqual([...rated].sort((x, y) => y - x));
    expect(sorted.findIndex((p) => p.rating_count === 0)).toBeGreaterThan(sorted.findIndex((p) => p.id === product.id));
  });

  it("the creator's profile shows their average over all their works", async () => {
    const { product, creator } = await creatorProduct();
    const second = (await seededProducts(t.app, 'image'))[productIndex++]!;
    await t.app.db.update(products).set({ authorId: creator.id }).where(eq(products.id, second.id));
    const a = await buyer(product.id, Number(product.priceMinor));
    await a.client.post(`/api/products/${product.id}/reviews`, { rating: 5 });
    const b = await buyer(second.id, Number(second.priceMinor));
    await b.client.post(`/api/products/${second.id}/reviews`, { rating: 2 });
    const profile = (await new TestClient(t.app).get(`/api/user/public-profile/${creator.id}`)).json().payload;
    expect(profile).toMatchObject({ rating_average: 3.5, rating_count: 2, products_count: 2 });
  });

  it("the product page's HTML carries Product JSON-LD with AggregateRating only once rated", async () => {
    const { product } = await creatorProduct();
    const html = async () => (await t.app.inject({ method: 'GET', url: `/products/${product.slug}`, headers: { accept: 'text/html' } })).body;
    const ld = (page: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page)![1]!);
    const before = ld(await html());
    expect(before).toMatchObject({ '@type': 'Product', name: product.title, offers: { priceCurrency: 'EUR' } });
    expect(before.aggregateRating).toBeUndefined();

    const b = await buyer(product.id, Number(product.priceMinor));
    await b.client.post(`/api/products/${product.id}/reviews`, { rating: 4, text: 'Nice </script><b>work</b>' });
    const page = await html();
    expect(page).not.toContain('</script><b>');
    const after = ld(page);
    expect(after.aggregateRating).toMatchObject({ '@type': 'AggregateRating', ratingValue: 4, reviewCount: 1 });
    expect(after.review[0]).toMatchObject({ '@type': 'Review', reviewRating: { ratingValue: 4 }, reviewBody: 'Nice </script><b>work</b>' });
  });

  it('a review of a missing product is a 404, a missing review too', async () => {
    const p = await registerPerson(t.app);
    expect((await p.client.post('/api/products/99999999/reviews', { rating: 3 })).statusCode).toBe(404);
    expect((await p.client.get('/api/products/99999999/reviews')).statusCode).toBe(404);
    expect((await p.client.put('/api/reviews/99999999', { rating: 3 })).statusCode).toBe(404);
    expect((await p.client.post('/api/reviews/99999999/reply', { text: 'x' })).statusCode).toBe(404);
    expect((await p.client.post('/api/reviews/99999999/report', {})).statusCode).toBe(404);
    const [n] = await t.app.db.select().from(notifications).where(eq(notifications.userId, p.id));
    expect(n).toBeUndefined();
  });
});
