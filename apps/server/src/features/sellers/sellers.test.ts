import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerSeller, registerStaff, sellerDetailsBody } from '../../../test/accounts';
import { availableMinor, firstCategoryId, fund } from '../../../test/commerce';
import { payoutContact } from '../../../test/payouts';
import { TestClient, useTestApp } from '../../../test/test-app';
import { offers, orders, products } from '../../db/schema';
import { releaseDueEarnings } from '../ledger';

/**
 * Trader details (issue 33): each field refused with a sentence; the gate on a first listing and a
 * first withdrawal; a change after a sale kept as history for staff only; the DAC7 figures of a
 * seller with sales and refunds, in JSON and CSV, with the exclusion threshold.
 */
const t = useTestApp({ seed: true });
let staff: Awaited<ReturnType<typeof registerStaff>>;
let categoryId: number;
beforeAll(async () => {
  staff = await registerStaff(t.app);
  categoryId = await firstCategoryId(t.app);
});

async function listingForm() {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  const fields = {
    title: 'Harbour at dawn',
    description: 'Soft light.',
    category_id: String(categoryId),
    price: '49.90',
    confirm: 'true',
    keywords: 'Impressionism',
    deal_type: 'listing',
  };
  const boundary = `----atelier${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="art.png"\r\nContent-Type: image/png\r\n\r\n`),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let serial = 0;
async function prompt(authorId: number, priceMinor: number) {
  serial++;
  const [row] = await t.app.db
    .insert(products)
    .values({ slug: `dac7-${serial}`, title: `DAC7 prompt ${serial}`, productType: 'prompt', promptText: 'A fox', authorId, priceMinor })
    .returning({ id: products.id });
  return row!.id;
}

const GATE = 'Before your first listing goes live or your first withdrawal, please give your trader details (the law asks marketplaces to know who sells).';

describe('trader details', () => {
  it('refuses each bad field with a sentence, and keeps each kind to its own fields', async () => {
    const me = await registerPerson(t.app);
    const put = (body: unknown) => me.client.put('/api/user/seller-details', body);
    expect((await me.client.get('/api/user/seller-details')).json().payload).toBeNull();
    const bad = await put({
      kind: 'individual',
      legal_name: ' ',
      date_of_birth: '2020-02-30',
      address: { line1: '', city: 'Lisboa', post_code: '1100#053', country: 'XX' },
      tax_id: '',
      vat_id: '123',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      legal_name: ['The legal name field is required.'],
      'address.line1': ['The address line 1 field is required.'],
      'address.post_code': ['The post code may have letters, digits, spaces and dashes only.'],
      'address.country': ['Please give the country as its two-letter code, such as PT or DE.'],
      tax_id: ['The tax id field is required.'],
      vat_id: ['A VAT number starts with its two-letter country prefix, such as PT123456789.'],
    });
    expect((await put({ ...sellerDetailsBody, date_of_birth: '2020-02-30' })).json().errors.date_of_birth).toEqual(['This date does not exist.']);
    expect((await put({ ...sellerDetailsBody, date_of_birth: undefined })).json().errors.date_of_birth).toEqual([
      'An individual seller must give their date of birth.',
    ]);
    const young = new Date();
    young.setUTCFullYear(young.getUTCFullYear() - 17);
    expect((await put({ ...sellerDetailsBody, date_of_birth: young.toISOString().slice(0, 10) })).json().errors.date_of_birth).toEqual([
      'A seller must be at least 18 years old.',
    ]);
    expect((await put({ ...sellerDetailsBody, kind: 'business' })).json().errors.registration_number).toEqual([
      'A business must give its company registration number.',
    ]);
    expect((await put({ ...sellerDetailsBody, kind: 'shop' })).json().errors.kind).toEqual(['Please say whether you sell as an individual or as a business.']);

    const business = await put({
      ...sellerDetailsBody,
      kind: 'business',
      legal_name: 'Duarte Studio Lda',
      registration_number: 'PT-514 000 000',
      vat_id: 'pt 514.000.000',
    });
    expect(business.statusCode).toBe(200);
    expect(business.json().payload).toMatchObject({
      kind: 'business',
      date_of_birth: null,
      registration_number: 'PT-514 000 000',
      vat_id: 'PT514000000',
      address: { country: 'PT', line2: null },
    });
    // A guest cannot; another user reads only their own (null).
    expect((await new TestClient(t.app).put('/api/user/seller-details', sellerDetailsBody)).statusCode).toBe(401);
    const other = await registerPerson(t.app);
    expect((await other.client.get('/api/user/seller-details')).json().payload).toBeNull();
    expect((await other.client.get(`/api/admin/users/${me.id}/seller-details`)).statusCode).toBe(403);
  });

  it('gates the first listing and the first withdrawal with a sentence and the form’s address', async () => {
    const me = await registerPerson(t.app);
    const refused = await me.client.request('POST', '/api/offer/create', await listingForm());
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: GATE, errors: { seller_details: [GATE, '/dashboard/seller-details'] } });
    expect(await t.app.db.select().from(offers).where(eq(offers.userId, me.id))).toEqual([]);

    // Earnings available, but no details: the withdrawal is refused before anything is written.
    const buyer = await registerPerson(t.app);
    await fund(t.app, buyer.id, 3000);
    expect((await buyer.client.post('/api/purchase/prompt', { prompt_id: await prompt(me.id, 2500) })).statusCode).toBe(200);
    await releaseDueEarnings(t.app.db, { clearingDays: 0 });
    expect(await availableMinor(t.app, me.id)).toBe(2000);
    const sepa = { ...payoutContact, method: 'sepa', amount: 20, account_number: 'DE89370400440532013000', recipient_full_name: 'Ines Duarte' };
    const noWithdrawal = await me.client.post('/api/earnings/withdraw', sepa);
    expect(noWithdrawal.statusCode).toBe(409);
    expect(noWithdrawal.json().message).toBe(GATE);
    expect(await availableMinor(t.app, me.id)).toBe(2000);

    expect((await me.client.put('/api/user/seller-details', sellerDetailsBody)).statusCode).toBe(200);
    expect((await me.client.request('POST', '/api/offer/create', await listingForm())).statusCode).toBe(200);
    expect((await me.client.post('/api/earnings/withdraw', sepa)).statusCode).toBe(200);

    // A change after a sale keeps the old details as history, which staff see.
    expect((await me.client.put('/api/user/seller-details', { ...sellerDetailsBody, legal_name: 'Ines M. Duarte' })).statusCode).toBe(200);
    const seen = (await staff.client.get(`/api/admin/users/${me.id}/seller-details`)).json().payload;
    expect(seen.current.legal_name).toBe('Ines M. Duarte');
    expect(seen.history.map((h: { details: { legal_name: string } }) => h.details.legal_name)).toEqual(['Ines Duarte']);
  });

  it('DAC7: consideration per quarter less refunds, sales, fees withheld, and the exclusion threshold, in JSON and CSV', async () => {
    const seller = await registerSeller(t.app, { name: 'Dora' });
    const small = await registerSeller(t.app, { name: 'Sam' });
    const work = await prompt(seller.id, 1000);
    const orderIds: number[] = [];
    for (let i = 0; i < 31; i++) {
      const buyer = await registerPerson(t.app);
      await fund(t.app, buyer.id, 1000);
      const res = await buyer.client.post('/api/purchase/prompt', { prompt_id: work });
      expect(res.statusCode).toBe(200);
      orderIds.push(res.json().payload.order.id);
      if (i === 0) {
        // The first buyer asks for a refund and the creator accepts it.
        const asked = await buyer.client.post(`/api/orders/${orderIds[0]}/refund-request`, { reason: 'broken_file', message: 'It does not open.' });
        expect(asked.statusCode).toBe(200);
        expect((await seller.client.post(`/api/refund-requests/${asked.json().payload.id}/accept`)).statusCode).toBe(200);
      }
    }
    const smallBuyer = await registerPerson(t.app);
    await fund(t.app, smallBuyer.id, 500);
    expect((await smallBuyer.client.post('/api/purchase/prompt', { prompt_id: await prompt(small.id, 500) })).statusCode).toBe(200);

    const year = new Date().getUTCFullYear();
    const q = Math.floor(new Date().getUTCMonth() / 3);
    const [order] = await t.app.db.select({ createdAt: orders.createdAt }).from(orders).where(eq(orders.id, orderIds[1]!));
    expect(Math.floor(order!.createdAt.getUTCMonth() / 3)).toBe(q);

    expect((await seller.client.get(`/api/admin/dac7?year=${year}`)).statusCode).toBe(403);
    expect((await staff.client.get('/api/admin/dac7?year=twenty')).json().errors.year).toEqual(['The year must be a number such as 2026.']);
    expect((await staff.client.get('/api/admin/dac7?year=2019')).json().errors.year).toEqual(['DAC7 reports start with 2023.']);
    const report = (await staff.client.get(`/api/admin/dac7?year=${year}`)).json().payload;
    expect(report.threshold).toMatchObject({ min_sales: 30, min_consideration_minor: 200000 });
    const dora = report.sellers.find((s: { user_id: number }) => s.user_id === seller.id);
    const quarters = (minor: number) => [0, 1, 2, 3].map((i) => (i === q ? minor : 0));
    // 31 sales of 10.00 €, one refunded: 30 sales, 300.00 €, 20 % commission withheld: 60.00 €; reportable (30 sales).
    expect(dora).toMatchObject({
      consideration_minor: quarters(30000),
      fees_minor: quarters(6000),
      sales: quarters(30),
      refunded_sales: 1,
      total_consideration_minor: 30000,
      total_sales: 30,
      excluded: false,
      details: { legal_name: 'Ines Duarte', tax_id: '234567890', address: { country: 'PT' } },
    });
    const sam = report.sellers.find((s: { user_id: number }) => s.user_id === small.id);
    expect(sam).toMatchObject({ total_sales: 1, total_consideration_minor: 500, excluded: true });

    const csv = await staff.client.get(`/api/admin/dac7.csv?year=${year}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toContain('q1_consideration_eur,q1_fees_eur,q1_sales');
    const doraLine = lines.find((l) => l.startsWith(`${seller.id},`))!;
    expect(doraLine).toContain(',Ines Duarte,1991-05-20,"Rua Augusta 100, 1100-053 Lisboa",PT,234567890,');
    expect(doraLine).toContain(`,300.00,60.00,30,`);
    expect(doraLine.endsWith(',300.00,30,1,no')).toBe(true);
    expect(lines.find((l) => l.startsWith(`${small.id},`))!.endsWith(',5.00,1,0,yes')).toBe(true);
  });
});
