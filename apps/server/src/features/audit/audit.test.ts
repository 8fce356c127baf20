import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { firstCategoryId } from '../../../test/commerce';
import { payoutContact } from '../../../test/payouts';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { auditLog } from '../../db/schema';

/** Every staff action writes one audit row in its own transaction; a refused action writes none. */
const t = useTestApp({ seed: true });
let categoryId: number;
beforeAll(async () => {
  categoryId = await firstCategoryId(t.app);
});

const person = () => registerPerson(t.app);

const staff = () => registerStaff(t.app);

async function createOffer(client: TestClient): Promise<number> {
  const boundary = `----atelier${Math.random().toString(16).slice(2)}`;
  const fields = {
    title: 'Harbour at dawn',
    description: 'Soft light.',
    category_id: String(categoryId),
    price: '40',
    confirm: 'true',
    keywords: 'Impressionism',
  };
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  const res = await client.request('POST', '/api/offer/create', {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json().payload.id;
}

const SEPA = {
  paymentType: 'sepa',
  ...payoutContact,
  account_number: 'DE89370400440532013000',
  recipient_full_name: 'Ines Duarte',
};

type Entry = { action: string; subject_type: string; subject_id: number; staff: { id: number }; before: unknown; after: unknown };

describe('audit log', () => {
  it('records the review, the payout and the product edits with before and after, filterable by staff and subject', async () => {
    const admin = await staff();
    const other = await staff();
    const creator = await person();
    const offerId = await createOffer(creator.client);

    expect((await admin.client.post(`/api/admin/offers/${offerId}/counter`, { service_price: 35, note: 'A fair price' })).statusCode).toBe(200);
    // A refused move (countering an offer that is no longer pending) is a 409 and leaves no record.
    expect((await other.client.post(`/api/admin/offers/${offerId}/counter`, { service_price: 36 })).statusCode).toBe(409);
    expect((await creator.client.post('/api/offer/approve', { id: offerId })).statusCode).toBe(200);
    expect((await creator.client.post('/api/offer/request-payout/sepa', { ...SEPA, id: offerId })).statusCode).toBe(200);
    const payouts = (await admin.client.get('/api/admin/payouts?status=processing')).json().payload as { id: number; offer_id: number; destination: string }[];
    const payout = payouts.find((p) => p.offer_id === offerId)!;
    expect(payout.destination).toBe('DE89 •••• 3000');
    expect((await other.client.post(`/api/admin/payouts/${payout.id}/complete`, { outcome: 'paid', reference: 'BANK-REF-77' })).statusCode).toBe(200);

    const offer = ((await admin.client.get('/api/admin/offers')).json().payload as { id: number; product_id: number | null }[]).find((o) => o.id === offerId)!;
    const productId = offer.product_id!;
    const patch = await admin.client.request('PATCH', `/api/admin/products/${productId}`, {
      body: { price: 59.9, category_id: categoryId, tags: ['harbour', 'dawn', 'Harbour'], status: 'published' },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().payload).toMatchObject({ status: 'published', price_minor: 5990, category_id: categoryId, tags: ['dawn', 'harbour'] });
    const product = (await admin.client.get(`/api/admin/products/${productId}`)).json().payload;
    expect(product.tags).toEqual(['dawn', 'harbour']);
    // The published product is in the shop.
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${productId}/info` })).statusCode).toBe(200);

    const offerLog = (await admin.client.get(`/api/admin/audit?subject=offer:${offerId}`)).json().payload as Entry[];
    expect(offerLog).toHaveLength(1);
    expect(offerLog[0]).toMatchObject({
      action: 'offer.counter',
      staff: { id: admin.id },
      before: { status: 'pending', service_price_minor: null },
      after: { status: 'offer', service_price_minor: 3500, note: 'A fair price' },
    });
    const byOther = (await admin.client.get(`/api/admin/audit?staff_id=${other.id}`)).json().payload as Entry[];
    expect(byOther.map((e) => [e.action, e.subject_type, e.subject_id])).toEqual([['payout.complete', 'payout', payout.id]]);
    expect(byOther[0]!.after).toMatchObject({ status: 'paid', transfer_reference: 'BANK-REF-77' });
    const productLog = (await admin.client.get(`/api/admin/audit?subject=product:${productId}`)).json().payload as Entry[];
    expect(productLog[0]).toMatchObject({
      action: 'product.update',
      before: { status: 'draft', tags: ['Impressionism'] },
      after: { status: 'published', price_minor: 5990 },
    });
    expect(((await admin.client.get('/api/admin/audit?subject=product')).json().payload as Entry[]).every((e) => e.subject_type === 'product')).toBe(true);
    expect((await admin.client.get('/api/admin/audit?subject=wallet:1')).statusCode).toBe(422);
  });

  it('declining writes its row; a failed PATCH (unknown category) writes none and changes nothing', async () => {
    const admin = await staff();
    const creator = await person();
    const offerId = await createOffer(creator.client);
    expect((await admin.client.post(`/api/admin/offers/${offerId}/decline`, { reason: 'Spam', status: 'declined' })).statusCode).toBe(200);
    const rows = await t.app.db.select().from(auditLog).where(eq(auditLog.staffId, admin.id));
    expect(rows.map((r) => [r.action, r.subjectId, (r.after as { status: string }).status])).toEqual([['offer.decline', offerId, 'declined']]);

    const before = (await admin.client.get('/api/admin/audit')).json().payload.length;
    const bad = await admin.client.request('PATCH', '/api/admin/products/1', { body: { category_id: 999999, status: 'hidden' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.category_id).toEqual(['This category does not exist.']);
    expect((await admin.client.get('/api/admin/products/1')).json().payload.status).not.toBe('hidden');
    expect((await admin.client.get('/api/admin/audit')).json().payload.length).toBe(before);
  });

  it('the log cannot be rewritten', async () => {
    await expect(t.app.db.update(auditLog).set({ action: 'nothing' })).rejects.toThrow();
    await expect(t.app.db.delete(auditLog)).rejects.toThrow();
  });
});
