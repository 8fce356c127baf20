import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { firstCategoryId } from '../../../test/commerce';
import { payoutContact } from '../../../test/payouts';
import { TestClient, useTestApp } from '../../../test/test-app';
import { auditLog, offers, products, users } from '../../db/schema';

const t = useTestApp({ seed: true });
let categoryId: number;
beforeAll(async () => {
  categoryId = await firstCategoryId(t.app);
});

async function png() {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
}

/** A multipart form as the create-offer dialog sends it. */
async function offerForm(fields: Record<string, string>) {
  const boundary = `----atelier${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="art.png"\r\nContent-Type: image/png\r\n\r\n`));
  parts.push(await png(), Buffer.from('\r\n'), Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function createOffer(client: TestClient, over: Record<string, string> = {}) {
  const fields = {
    title: 'Harbour at dawn',
    description: 'Soft light over the water.',
    category_id: String(categoryId),
    price: '49.90',
    confirm: 'true',
    keywords: 'Impressionism',
    ...over,
  };
  return client.request('POST', '/api/offer/create', await offerForm(fields));
}

describe('listings', () => {
  it('without deal_type an offer is a buyout; a bad deal_type is a 422 with a message', async () => {
    const me = await registerSeller(t.app);
    const res = await createOffer(me.client);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ deal_type: 'buyout', status: 'pending' });
    const bad = await createOffer(me.client, { deal_type: 'rent' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.deal_type).toEqual(['The deal type must be listing or buyout.']);
  });

  it("staff approve a listing as it is: published as the creator's own product at their price, no payout", async () => {
    const me = await registerSeller(t.app);
    const created = await createOffer(me.client, { deal_type: 'listing' });
    expect(created.json().payload).toMatchObject({ deal_type: 'listing', status: 'pending' });
    const id = created.json().payload.id;
    // Another user cannot approve it (not staff), nor see it.
    const other = await registerPerson(t.app);
    expect((await other.client.post(`/api/admin/offers/${id}/approve`)).statusCode).toBe(403);

    const admin = await registerStaff(t.app);
    const res = await admin.client.post(`/api/admin/offers/${id}/approve`);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ status: 'approved', deal_type: 'listing', service_price: 49.9 });
    const [row] = await t.app.db.select().from(offers).where(eq(offers.id, id));
    const [product] = await t.app.db.select().from(products).where(eq(products.id, row!.productId!));
    expect(product).toMatchObject({ authorId: me.id, platformOwned: false, status: 'published', priceMinor: 4990 });
    const audit = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'offer.approve'));
    expect(audit.some((a) => a.subjectId === id)).toBe(true);

    // No payout for a listing: the money comes through sales.
    const payout = await me.client.post('/api/offer/request-payout/sepa', {
      ...payoutContact,
      id,
      account_number: 'DE89370400440532013000',
      recipient_full_name: 'Ines Duarte',
    });
    expect(payout.statusCode).toBe(409);
    // Approving twice, or approving a buyout, is a 409.
    expect((await admin.client.post(`/api/admin/offers/${id}/approve`)).statusCode).toBe(409);
    const buyout = (await createOffer(me.client)).json().payload.id;
    expect((await admin.client.post(`/api/admin/offers/${buyout}/approve`)).statusCode).toBe(409);
  });

  it("approving a listing tells the creator's followers (new_work), as publishing a draft does, and its product says what the file is", async () => {
    const me = await registerSeller(t.app);
    const [{ nickname }] = (await t.app.db.select({ nickname: users.nickname }).from(users).where(eq(users.id, me.id))) as [{ nickname: string }];
    const follower = await registerPerson(t.app);
    const stranger = await registerPerson(t.app);
    expect((await follower.client.post(`/api/creators/${nickname}/follow`)).statusCode).toBe(200);
    const created = await createOffer(me.client, { deal_type: 'listing', title: 'Lighthouse at dusk' });
    expect(created.statusCode).toBe(200);
    const admin = await registerStaff(t.app);
    expect((await admin.client.post(`/api/admin/offers/${created.json().payload.id}/approve`)).statusCode).toBe(200);
    const [row] = await t.app.db.select().from(offers).where(eq(offers.id, created.json().payload.id));
    const product = await productOf(row!.productId!);

    const bell = (await follower.client.get('/api/notifications')).json().payload as { kind: string; text: string; link: string }[];
    expect(bell.filter((n) => n.kind === 'new_work')).toEqual([
      expect.objectContaining({ text: `@${nickname} published a new work: “Lighthouse at dusk”.`, link: `/products/${product.slug}` }),
    ]);
    // Only followers hear of it.
    const others = (await stranger.client.get('/api/notifications')).json().payload as { kind: string }[];
    expect(others.some((n) => n.kind === 'new_work')).toBe(false);

    // The upload was measured when it arrived (issue 31 item 7): the product page says what a buyer gets.
    const info = (await follower.client.get(`/api/products/${product.slug}/info`)).json().payload;
    expect(info).toMatchObject({ sales_count: 0, file: { format: 'PNG', width: 64, height: 48, bytes: (await png()).length } });
  });

  it('staff suggest another price; the creator accepts and the listing is published at it', async () => {
    const me = await registerSeller(t.app);
    const id = (await createOffer(me.client, { deal_type: 'listing' })).json().payload.id;
    const admin = await registerStaff(t.app);
    expect((await admin.client.post(`/api/admin/offers/${id}/counter`, { service_price: 39, note: 'A little lower sells better.' })).statusCode).toBe(200);
    const accepted = await me.client.post('/api/offer/approve', { id });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().message).toBe('Your work is listed in the shop.');
    const [row] = await t.app.db.select().from(offers).where(eq(offers.id, id));
    const [product] = await t.app.db.select().from(products).where(eq(products.id, row!.productId!));
    expect(product).toMatchObject({ authorId: me.id, platformOwned: false, status: 'published', priceMinor: 3900 });
  });

  it('the creator may decline a suggested price, and staff may decline a listing', async () => {
    const me = await registerSeller(t.app);
    const admin = await registerStaff(t.app);
    const first = (await createOffer(me.client, { deal_type: 'listing' })).json().payload.id;
    await admin.client.post(`/api/admin/offers/${first}/counter`, { service_price: 20, note: 'Lower?' });
    expect((await me.client.post('/api/offer/decline', { id: first })).json().payload.status).toBe('declined_by_user');
    const second = (await createOffer(me.client, { deal_type: 'listing' })).json().payload.id;
    const declined = await admin.client.post(`/api/admin/offers/${second}/decline`, { status: 'declined_by_service', reason: 'Not a fit.' });
    expect(declined.json().payload.status).toBe('declined_by_service');
    const [row] = await t.app.db.select().from(offers).where(eq(offers.id, second));
    expect(row!.productId).toBeNull();
  });
});

/** A listing approved by staff: its id, its product's slug and id. */
async function approvedListing(client: TestClient, price = '40') {
  const id = (await createOffer(client, { deal_type: 'listing', price })).json().payload.id as number;
  const admin = await registerStaff(t.app);
  expect((await admin.client.post(`/api/admin/offers/${id}/approve`)).statusCode).toBe(200);
  const [row] = await t.app.db.select().from(offers).where(eq(offers.id, id));
  const [product] = await t.app.db.select().from(products).where(eq(products.id, row!.productId!));
  return { id, admin, productId: product!.id, slug: product!.slug };
}

const patch = (client: TestClient, url: string, body: unknown) => client.request('PATCH', url, { body });
const productOf = async (id: number) => (await t.app.db.select().from(products).where(eq(products.id, id)))[0]!;
const auditOf = async (offerId: number) =>
  (await t.app.db.select().from(auditLog).where(eq(auditLog.subjectId, offerId))).filter((a) => a.subjectType === 'offer' && a.action.startsWith('listing.'));

describe('listing management from My projects (issue 19)', () => {
  it('a price within 50% of the approved one is live at once, stays listed and is audited', async () => {
    const me = await registerSeller(t.app);
    const { id, productId, slug } = await approvedListing(me.client);
    const res = await patch(me.client, `/api/offer/${id}/listing`, { price: 60 });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('The new price is saved.');
    expect(res.json().payload).toMatchObject({ status: 'approved', user_price: 60, service_price: 40 });
    expect(await productOf(productId)).toMatchObject({ priceMinor: 6000, status: 'published' });
    await vi.waitFor(async () => expect((await me.client.get(`/api/products/${slug}/info`)).json().payload.price).toBe(60));
    // 30 is 25% below the approved 40: still no review (the approved price is the reference, not the last one).
    expect((await patch(me.client, `/api/offer/${id}/listing`, { price: 30 })).json().payload.status).toBe('approved');
    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(['listing.price', 'listing.price']);
    expect(audit[0]).toMatchObject({
      staffId: me.id,
      before: expect.objectContaining({ product_price_minor: 4000 }),
      after: expect.objectContaining({ product_price_minor: 6000 }),
    });
  });

  it('a price more than 50% away goes back to review, hidden; staff approve it and the same product is published at it', async () => {
    const me = await registerSeller(t.app);
    const { id, admin, productId, slug } = await approvedListing(me.client);
    const res = await patch(me.client, `/api/offer/${id}/listing`, { price: 19.99 });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ status: 'pending', user_price: 19.99 });
    expect(res.json().message).toMatch(/hidden until we review it again/);
    expect(await productOf(productId)).toMatchObject({ status: 'hidden', priceMinor: 4000 });
    await vi.waitFor(async () => expect((await me.client.get(`/api/products/${slug}/info`)).statusCode).toBe(404));
    // It is in the review queue; meanwhile it cannot be repriced, unlisted or relisted.
    const queue = (await admin.client.get('/api/admin/offers?status=pending')).json().payload as { id: number }[];
    expect(queue.some((o) => o.id === id)).toBe(true);
    expect((await patch(me.client, `/api/offer/${id}/listing`, { price: 41 })).statusCode).toBe(409);
    expect((await me.client.post(`/api/offer/${id}/unlist`)).statusCode).toBe(409);

    expect((await admin.client.post(`/api/admin/offers/${id}/approve`)).json().payload).toMatchObject({ status: 'approved', service_price: 19.99 });
    const [row] = await t.app.db.select().from(offers).where(eq(offers.id, id));
    expect(row!.productId).toBe(productId);
    expect(await productOf(productId)).toMatchObject({ status: 'published', priceMinor: 1999 });
    expect((await t.app.db.select().from(products).where(eq(products.slug, slug))).length).toBe(1);
    expect((await auditOf(id)).map((a) => a.action)).toEqual(['listing.price_review']);
    // Up by more than half is a review as well.
    expect((await patch(me.client, `/api/offer/${id}/listing`, { price: 30.01 })).json().payload.status).toBe('pending');
  });

  it('unlist hides the work, relist shows it again; each once, each audited', async () => {
    const me = await registerSeller(t.app);
    const { id, productId, slug } = await approvedListing(me.client);
    const off = await me.client.post(`/api/offer/${id}/unlist`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ message: 'Your work is no longer listed in the shop.', payload: { status: 'unlisted' } });
    expect((await productOf(productId)).status).toBe('hidden');
    await vi.waitFor(async () => expect((await me.client.get(`/api/products/${slug}/info`)).statusCode).toBe(404));
    expect((await me.client.post(`/api/offer/${id}/unlist`)).statusCode).toBe(409);
    // A small price change while unlisted is kept, and the work stays out of the shop.
    expect((await patch(me.client, `/api/offer/${id}/listing`, { price: 45 })).json().payload.status).toBe('unlisted');
    expect(await productOf(productId)).toMatchObject({ status: 'hidden', priceMinor: 4500 });

    const on = await me.client.post(`/api/offer/${id}/relist`);
    expect(on.json()).toMatchObject({ message: 'Your work is listed in the shop again.', payload: { status: 'approved' } });
    expect(await productOf(productId)).toMatchObject({ status: 'published', priceMinor: 4500 });
    await vi.waitFor(async () => expect((await me.client.get(`/api/products/${slug}/info`)).statusCode).toBe(200));
    expect((await me.client.post(`/api/offer/${id}/relist`)).statusCode).toBe(409);
    expect((await auditOf(id)).map((a) => a.action)).toEqual(['listing.unlist', 'listing.price', 'listing.relist']);
  });

  it("a second user cannot change, unlist or relist the first user's listing (404, nothing changes); a guest gets 401", async () => {
    const me = await registerSeller(t.app);
    const { id, productId } = await approvedListing(me.client);
    const other = await registerPerson(t.app);
    for (const res of [
      await patch(other.client, `/api/offer/${id}/listing`, { price: 10 }),
      await other.client.post(`/api/offer/${id}/unlist`),
      await other.client.post(`/api/offer/${id}/relist`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 'ERROR', message: 'This offer does not exist.' });
    }
    const guest = new TestClient(t.app);
    expect((await patch(guest, `/api/offer/${id}/listing`, { price: 10 })).statusCode).toBe(401);
    expect((await guest.post(`/api/offer/${id}/unlist`)).statusCode).toBe(401);
    expect(await productOf(productId)).toMatchObject({ status: 'published', priceMinor: 4000 });
    expect(await auditOf(id)).toEqual([]);
  });

  it('4xx: a bad price per field, an unknown or malformed id, a buyout, a listing still in review', async () => {
    const me = await registerSeller(t.app);
    const { id } = await approvedListing(me.client);
    for (const [body, message] of [
      [{ price: 0 }, 'The price must be above zero.'],
      [{ price: 12.345 }, 'The price may have at most 2 decimals.'],
      [{ price: 'cheap' }, 'Please enter a valid price.'],
      [{}, 'Please enter a valid price.'],
    ] as const) {
      const res = await patch(me.client, `/api/offer/${id}/listing`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().errors.price).toEqual([message]);
    }
    expect((await patch(me.client, '/api/offer/999999999/listing', { price: 10 })).statusCode).toBe(404);
    expect((await me.client.post('/api/offer/abc/unlist')).statusCode).toBe(422);
    const buyout = (await createOffer(me.client)).json().payload.id;
    expect((await patch(me.client, `/api/offer/${buyout}/listing`, { price: 10 })).json()).toMatchObject({
      status: 'ERROR',
      message: 'Only an approved listing can be changed here.',
    });
    const pending = (await createOffer(me.client, { deal_type: 'listing' })).json().payload.id;
    expect((await me.client.post(`/api/offer/${pending}/relist`)).statusCode).toBe(409);
    expect((await me.client.post(`/api/offer/${pending}/unlist`)).statusCode).toBe(409);
  });
});
