import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { auditLog, categories, offers, products } from '../../db/schema';

let t: TestApp;
let categoryId: number;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const [cat] = await t.app.db.select({ id: categories.id }).from(categories).orderBy(categories.id).limit(1);
  categoryId = cat!.id;
});
afterAll(() => t.close());

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
    const me = await registerPerson(t.app);
    const res = await createOffer(me.client);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ deal_type: 'buyout', status: 'pending' });
    const bad = await createOffer(me.client, { deal_type: 'rent' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.deal_type).toEqual(['The deal type must be listing or buyout.']);
  });

  it("staff approve a listing as it is: published as the creator's own product at their price, no payout", async () => {
    const me = await registerPerson(t.app);
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
      id,
      first_name: 'Ines',
      last_name: 'Duarte',
      email: 'ines@example.com',
      phone: '+351912345678',
      address: 'Rua Augusta 1',
      city: 'Lisboa',
      post_code: '1100-048',
      country: 620,
      account_number: 'DE89370400440532013000',
      recipient_full_name: 'Ines Duarte',
    });
    expect(payout.statusCode).toBe(409);
    // Approving twice, or approving a buyout, is a 409.
    expect((await admin.client.post(`/api/admin/offers/${id}/approve`)).statusCode).toBe(409);
    const buyout = (await createOffer(me.client)).json().payload.id;
    expect((await admin.client.post(`/api/admin/offers/${buyout}/approve`)).statusCode).toBe(409);
  });

  it('staff suggest another price; the creator accepts and the listing is published at it', async () => {
    const me = await registerPerson(t.app);
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
    const me = await registerPerson(t.app);
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
