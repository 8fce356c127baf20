import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, registerStaff, registerUser } from '../../../test/accounts';
import { firstCategoryId, userIdByEmail } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { categories, mailOutbox, offerEvents, offers, payouts, products } from '../../db/schema';
import { checkLedger, clearingAccountCode, systemAccountId } from '../ledger';
import { OFFER_ACQUISITIONS } from '../payouts';

let categoryId: number;
/** Every line the app logs (at trace level), searched for card numbers and IBANs. */
const logLines: string[] = [];
const t = useTestApp({ seed: true, logStream: { write: (line) => logLines.push(line) } });
beforeAll(async () => {
  categoryId = await firstCategoryId(t.app);
});

const GOOD_CARD = '4242 4242 4242 4242';
const FAILING_CARD = '4000000000000002';
const IBAN = 'DE89370400440532013000';

async function png(width = 64, height = 48) {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const DOCX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('\x14\x00\x00\x00word/document.xml<w:document/>', 'latin1')]);
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(64, 0), Buffer.from('This program cannot be run in DOS mode.')]);
const EVIL_SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40" onload="alert(1)"><script>alert(2)</script><rect width="40" height="40" fill="#c33" onclick="steal()"/><image xlink:href="https://evil.example/x.png" width="10" height="10"/><foreignObject><p>hi</p></foreignObject></svg>',
);

/** A multipart form as the create-offer dialog sends it. */
function offerForm(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = `----atelier${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const fields = (over: Record<string, string> = {}) => ({
  title: 'Harbour at dawn',
  description: 'Soft light over the water.',
  category_id: String(categoryId),
  price: '49.90',
  confirm: 'true',
  keywords: 'Impressionism 3D Rendering',
  ...over,
});

async function createOffer(client: TestClient, file: { name: string; type: string; data: Buffer } | undefined, over: Record<string, string> = {}) {
  return client.request('POST', '/api/offer/create', offerForm(fields(over), file));
}

async function creator() {
  const { client, person } = await registerUser(t.app);
  return { client, person, id: await userIdByEmail(t.app, person.email) };
}

const staff = async () => (await registerStaff(t.app)).client;

async function offerRow(id: number) {
  const [row] = await t.app.db.select().from(offers).where(eq(offers.id, id));
  return row!;
}

const cardPayload = (id: number, number = GOOD_CARD, over: Record<string, unknown> = {}) => ({
  id,
  paymentType: 'card',
  first_name: 'Ines',
  last_name: 'Duarte',
  name: 'Ines',
  surname: 'Duarte',
  email: 'ines@example.com',
  phone: '+351912345678',
  address: 'Rua Augusta 1',
  city: 'Lisboa',
  post_code: '1100-048',
  postCode: '1100-048',
  country: 620,
  currency: 'EUR',
  card_number: number,
  expire_month: 12,
  expire_year: new Date().getUTCFullYear() + 2,
  terms: true,
  card_holder_name: 'Ines Duarte',
  ...over,
});

/** Runs the due jobs as if `seconds` had passed (the sandbox settles card payouts after a delay). */
const runJobsAfter = (seconds: number) => t.app.jobs.runDue({ at: new Date(Date.now() + seconds * 1000) });

/** A pending offer with an image, countered by staff at `price`. */
async function counteredOffer(price = 40) {
  const me = await creator();
  const created = await createOffer(me.client, { name: 'art.png', type: 'image/png', data: await png() });
  expect(created.statusCode).toBe(200);
  const id = created.json().payload.id as number;
  const admin = await staff();
  const res = await admin.post(`/api/admin/offers/${id}/counter`, { service_price: price, note: 'We like it.' });
  expect(res.statusCode).toBe(200);
  return { ...me, offerId: id, admin };
}

describe('issue 18 conformance: a text offered under Prompts', () => {
  it('is a prompt offer (doc_type prompt) and becomes a prompt product with its text when accepted; elsewhere a text is other', async () => {
    const [midjourney] = await t.app.db.select({ id: categories.id }).from(categories).where(eq(categories.url, 'prompts/midjourney'));
    const me = await creator();
    const text = 'A lighthouse at dusk, volumetric fog, --ar 3:4 --stylize 250';
    const created = await createOffer(
      me.client,
      { name: 'lighthouse.txt', type: 'text/plain', data: Buffer.from(text) },
      { category_id: String(midjourney!.id) },
    );
    expect(created.statusCode).toBe(200);
    expect(created.json().payload.doc_type).toBe('prompt');
    const elsewhere = await createOffer(me.client, { name: 'essay.txt', type: 'text/plain', data: Buffer.from('An essay.') });
    expect(elsewhere.json().payload.doc_type).toBe('other');

    const id = created.json().payload.id as number;
    expect((await (await staff()).post(`/api/admin/offers/${id}/counter`, { service_price: 20, note: 'Nice.' })).statusCode).toBe(200);
    expect((await me.client.post('/api/offer/approve', { id })).statusCode).toBe(200);
    const [product] = await t.app.db
      .select()
      .from(products)
      .where(eq(products.id, (await offerRow(id)).productId!));
    expect([product!.productType, product!.promptText]).toEqual(['prompt', text]);
  });
});

describe('offer styles', () => {
  it('lists the nine styles of SPEC §2', async () => {
    const res = await new TestClient(t.app).get('/api/offer/styles');
    expect(res.statusCode).toBe(200);
    const styles = res.json().payload;
    expect(styles).toHaveLength(9);
    expect(styles[0]).toEqual({ id: 1, title: 'Photo-realism' });
    expect(styles.map((s: { title: string }) => s.title)).toContain('Vintage/Retro');
  });
});

describe('creating an offer', () => {
  it('a guest gets 401', async () => {
    const guest = new TestClient(t.app);
    expect((await guest.get('/api/offer/history')).statusCode).toBe(401);
    expect((await createOffer(guest, { name: 'a.png', type: 'image/png', data: await png() })).statusCode).toBe(401);
  });

  it('stores an image offer with a watermarked public preview, the original private, an event and an e-mail', async () => {
    const me = await creator();
    const original = await png(800, 600);
    const res = await createOffer(me.client, { name: 'harbour.png', type: 'image/png', data: original });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Your offer successfully sent');
    const o = body.payload;
    expect(o).toMatchObject({ title: 'Harbour at dawn', doc_type: 'image', user_price: 49.9, service_price: null, currency: 'EUR', status: 'pending' });
    expect(o.tags).toEqual([{ name: 'Impressionism' }, { name: '3D Rendering' }]);
    expect(typeof o.created_at).toBe('number');
    expect(o.imageUrl).toMatch(/^\/storage\/offers\/[0-9a-f]+\/preview\.webp$/);

    const preview = await t.app.inject({ method: 'GET', url: o.imageUrl });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toContain('image/webp');
    // The preview is not the original: it is re-encoded with the watermark drawn over it.
    const previewPixels = await sharp(preview.rawPayload).raw().toBuffer();
    const plain = await sharp(original).resize({ width: 800 }).raw().toBuffer();
    expect(previewPixels.equals(plain)).toBe(false);

    const row = await offerRow(o.id);
    expect(row.originalPath).toMatch(/original\.png$/);
    expect((await t.app.inject({ method: 'GET', url: `/storage/${row.originalPath}` })).statusCode).toBe(404);
    const stored = await t.app.storage.openPrivate(row.originalPath);
    expect(stored?.size).toBe(original.length);
    stored?.stream.destroy();

    const events = await t.app.db.select().from(offerEvents).where(eq(offerEvents.offerId, o.id));
    expect(events).toMatchObject([{ fromStatus: null, toStatus: 'pending', actor: 'creator', actorId: me.id }]);
    expect((await lastMailTo(t.app, me.person.email))?.text).toContain('within 3 business days');

    const history = await me.client.get('/api/offer/history');
    expect(history.json().payload.map((x: { id: number }) => x.id)).toEqual([o.id]);
  });

  it('answers per-field 422s with the SPEC field names', async () => {
    const me = await creator();
    const res = await me.client.request('POST', '/api/offer/create', offerForm({ confirm: 'true' }));
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors.title).toEqual(['Please enter a title.']);
    expect(errors.category_id).toEqual(['Please select a category.']);
    expect(errors.price).toEqual(['Please enter a valid price.']);
    expect(errors.keywords).toEqual(['Please select at least one style.']);
    expect(errors.media).toEqual(['Please upload a file.']);

    const unknown = await createOffer(
      me.client,
      { name: 'a.png', type: 'image/png', data: await png() },
      { category_id: '999999', price: 'abc', keywords: 'Cubism' },
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.price).toEqual(['Please enter a valid price.']);
    expect(unknown.json().errors.keywords).toEqual(['Please select at least one style.']);
    const noCategory = await createOffer(me.client, { name: 'a.png', type: 'image/png', data: await png() }, { category_id: '999999' });
    expect(noCategory.json().errors).toEqual({ category_id: ['Please select a category.'] });
    const nul = await createOffer(me.client, { name: 'a\u0000b.png', type: 'image/png', data: await png() }, { title: 'Bad\u0000title' });
    expect(nul.statusCode).toBe(422);
    expect(nul.json().errors).toEqual({ title: ['The title may not contain a NUL character.'] });
    expect((await me.client.get('/api/offer/history')).json().payload).toEqual([]);
  });

  it('checks the type by the bytes: a .png that is a PDF, an exe named .jpg, a wrong extension', async () => {
    const me = await creator();
    const fake = await createOffer(me.client, { name: 'scan.png', type: 'image/png', data: PDF });
    expect(fake.statusCode).toBe(422);
    expect(fake.json().errors).toEqual({ media: ["The file's contents do not match its .png name."] });
    const exe = await createOffer(me.client, { name: 'holiday.jpg', type: 'image/jpeg', data: EXE });
    expect(exe.statusCode).toBe(422);
    expect(exe.json().errors).toEqual({ media: ['File type not supported'] });
    const ext = await createOffer(me.client, { name: 'tool.exe', type: 'application/octet-stream', data: await png() });
    expect(ext.json().errors).toEqual({ media: ['File type not supported'] });
    const zip = await createOffer(me.client, { name: 'book.docx', type: 'application/zip', data: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]) });
    expect(zip.json().errors).toEqual({ media: ['File type not supported'] });
    expect((await me.client.get('/api/offer/history')).json().payload).toEqual([]);
  });

  it('refuses a file over 20 MB', async () => {
    const me = await creator();
    const big = Buffer.alloc(21 * 1024 * 1024, 0x41);
    const res = await createOffer(me.client, { name: 'long.txt', type: 'text/plain', data: big });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ media: ['File size exceeds 20MB limit'] });
  });

  it('sanitises an SVG with script before storing it and rasterises its preview', async () => {
    const me = await creator();
    const res = await createOffer(me.client, { name: 'logo.svg', type: 'image/svg+xml', data: EVIL_SVG });
    expect(res.statusCode).toBe(200);
    const o = res.json().payload;
    expect(o.doc_type).toBe('image');
    expect(o.imageUrl).toMatch(/\.webp$/);
    const row = await offerRow(o.id);
    const stored = await t.app.storage.openPrivate(row.originalPath);
    const chunks: Buffer[] = [];
    for await (const c of stored!.stream) chunks.push(c as Buffer);
    const svg = Buffer.concat(chunks).toString('utf8');
    expect(svg).toContain('<rect');
    expect(svg).not.toMatch(/script|onload|onclick|evil\.example|foreignObject/i);
    const preview = await t.app.inject({ method: 'GET', url: o.imageUrl });
    expect(preview.headers['content-type']).toContain('image/webp');
  });

  it('accepts documents by their bytes and gives them a generated cover', async () => {
    const me = await creator();
    for (const file of [
      { name: 'guide.pdf', type: 'application/pdf', data: PDF },
      { name: 'story.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', data: DOCX },
      { name: 'old.doc', type: 'application/msword', data: Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]) },
      { name: 'poem.txt', type: 'text/plain', data: Buffer.from('Roses are red,\nvïolets are blue.\n') },
    ]) {
      const res = await createOffer(me.client, file, { title: `Doc ${file.name}` });
      expect(res.statusCode, file.name).toBe(200);
      expect(res.json().payload.doc_type).toBe('other');
      const cover = await t.app.inject({ method: 'GET', url: res.json().payload.imageUrl });
      expect(cover.statusCode).toBe(200);
      expect((await sharp(cover.rawPayload).metadata()).width).toBe(720);
    }
    const binaryTxt = await createOffer(me.client, { name: 'x.txt', type: 'text/plain', data: Buffer.from([0x41, 0x00, 0x42]) });
    expect(binaryTxt.json().errors).toEqual({ media: ['File type not supported'] });
  });
});

describe('staff review', () => {
  it('admin routes answer 401 to a guest and 403 to a normal user', async () => {
    const guest = new TestClient(t.app);
    const { client } = await creator();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/offers'],
      ['GET', '/api/admin/offers/1/file'],
      ['POST', '/api/admin/offers/1/counter', { service_price: 10 }],
      ['POST', '/api/admin/offers/1/decline', { reason: 'no' }],
      ['GET', '/api/admin/payouts'],
      ['POST', '/api/admin/payouts/1/complete', { outcome: 'paid', reference: 'X' }],
      ['GET', '/api/admin/payouts/sepa-export?debtor_iban=DE89370400440532013000'],
    ];
    for (const [method, url, body] of calls) {
      expect((await guest.request(method as 'GET', url, { body })).statusCode, url).toBe(401);
      expect((await client.request(method as 'GET', url, { body })).statusCode, url).toBe(403);
    }
  });

  it('lists pending offers oldest first with the creator and history; staff download the original', async () => {
    const a = await creator();
    const first = (await createOffer(a.client, { name: 'a.png', type: 'image/png', data: await png() })).json().payload.id;
    const second = (await createOffer(a.client, { name: 'b.png', type: 'image/png', data: await png() })).json().payload.id;
    const admin = await staff();
    const list = (await admin.get('/api/admin/offers?status=pending')).json().payload as {
      id: number;
      user: { email: string };
      events: unknown[];
      file_url: string;
    }[];
    const ids = list.map((o) => o.id);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    const mine = list.find((o) => o.id === first)!;
    expect(mine.user.email).toBe(a.person.email);
    expect(mine.events).toHaveLength(1);
    const file = await admin.get(mine.file_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('attachment');
    // Only the signed link opens the file, and only for its own offer.
    expect((await admin.get(`/api/admin/offers/${first}/file`)).statusCode).toBe(422);
    const forged = mine.file_url.replace(`/offers/${first}/`, `/offers/${second}/`);
    expect((await admin.get(forged)).statusCode).toBe(403);
    // A link signed properly (the test app's secret) but past its time.
    const past = Math.floor(Date.now() / 1000) - 1;
    const signature = createHmac('sha256', 's'.repeat(40)).update(`offer-file:${first}:${past}`).digest('base64url');
    const expired = await admin.get(`/api/admin/offers/${first}/file?expires=${past}&signature=${signature}`);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe('This file link has expired. Reload the review queue for a new one.');
    expect((await admin.get('/api/admin/offers?status=nonsense')).statusCode).toBe(422);
  });

  it('declines with a reason (and spam as declined); the creator is told; a declined offer cannot be accepted', async () => {
    const me = await creator();
    const id = (await createOffer(me.client, { name: 'a.png', type: 'image/png', data: await png() })).json().payload.id;
    const spamId = (await createOffer(me.client, { name: 'b.png', type: 'image/png', data: await png() })).json().payload.id;
    const admin = await staff();
    expect((await admin.post(`/api/admin/offers/${id}/decline`, {})).statusCode).toBe(422);
    const res = await admin.post(`/api/admin/offers/${id}/decline`, { reason: 'Too close to an existing work.' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ status: 'declined_by_service', status_note: 'Too close to an existing work.' });
    expect((await lastMailTo(t.app, me.person.email))?.text).toContain('Too close to an existing work.');
    const spam = await admin.post(`/api/admin/offers/${spamId}/decline`, { reason: 'Spam', status: 'declined' });
    expect(spam.json().payload.status).toBe('declined');

    const accept = await me.client.post('/api/offer/approve', { id });
    expect(accept.statusCode).toBe(409);
    expect(accept.json().message).toBe('This offer is declined by us and cannot be accepted now.');
    const again = await admin.post(`/api/admin/offers/${id}/counter`, { service_price: 10 });
    expect(again.statusCode).toBe(409);
    expect((await offerRow(id)).status).toBe('declined_by_service');
    expect(await t.app.db.select().from(offerEvents).where(eq(offerEvents.offerId, id))).toHaveLength(2);
  });
});

describe('the creator answers a counter-offer', () => {
  it("another user's offer is a 404 for every creator move", async () => {
    const { offerId } = await counteredOffer();
    const other = await creator();
    for (const [url, body] of [
      ['/api/offer/approve', { id: offerId }],
      ['/api/offer/decline', { id: offerId }],
      ['/api/offer/request-payout/card', cardPayload(offerId)],
      ['/api/offer/request-payout/sepa', { ...cardPayload(offerId), paymentType: 'sepa', account_number: IBAN, recipient_full_name: 'X' }],
    ] as const) {
      const res = await other.client.post(url, body);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toBe('This offer does not exist.');
    }
    expect((await offerRow(offerId)).status).toBe('offer');
    expect((await other.client.post('/api/offer/approve', { id: 987654321 })).statusCode).toBe(404);
  });

  it("declines: 'Deal is declined', final", async () => {
    const { client, offerId } = await counteredOffer();
    const res = await client.post('/api/offer/decline', { id: offerId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Deal is declined', payload: { status: 'declined_by_user' } });
    expect((await client.post('/api/offer/approve', { id: offerId })).statusCode).toBe(409);
    expect((await client.post('/api/offer/request-payout/card', cardPayload(offerId))).statusCode).toBe(409);
  });

  it('a payout before acceptance is a 409 and nothing changes', async () => {
    const me = await creator();
    const id = (await createOffer(me.client, { name: 'a.png', type: 'image/png', data: await png() })).json().payload.id;
    const early = await me.client.post('/api/offer/request-payout/card', cardPayload(id));
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('This offer is waiting for review and cannot be paid out now.');
    expect((await me.client.post('/api/offer/approve', { id })).statusCode).toBe(409);
    const countered = await counteredOffer();
    expect((await countered.client.post('/api/offer/request-payout/card', cardPayload(countered.offerId))).statusCode).toBe(409);
    expect(await t.app.db.select().from(payouts).where(eq(payouts.offerId, countered.offerId))).toEqual([]);
    expect((await offerRow(countered.offerId)).status).toBe('offer');
  });

  it('the whole happy path to paid, with the product, the ledger and no card number stored', async () => {
    const { client, person, id: creatorId, offerId, admin } = await counteredOffer(40);
    const history = (await client.get('/api/offer/history')).json().payload[0];
    expect(history).toMatchObject({ id: offerId, status: 'offer', service_price: 40, user_price: 49.9 });
    expect((await lastMailTo(t.app, person.email))?.text).toContain('€40.00');

    const accepted = await client.post('/api/offer/approve', { id: offerId });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().payload.status).toBe('approved');
    expect((await client.post('/api/offer/approve', { id: offerId })).statusCode).toBe(409);

    // The work is now a platform-owned draft product, unlisted until staff publish it.
    const row = await offerRow(offerId);
    const [product] = await t.app.db.select().from(products).where(eq(products.id, row.productId!));
    expect(product).toMatchObject({ authorId: creatorId, platformOwned: true, status: 'draft', originalPath: row.originalPath, previewPath: row.previewPath });
    expect((await new TestClient(t.app).get(`/api/products/${product!.slug}/info`)).statusCode).toBe(404);

    const bad = await client.post('/api/offer/request-payout/card', cardPayload(offerId, '4242 4242 4242 4241'));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.card_number).toEqual(['Please enter a valid card number']);
    const expired = await client.post('/api/offer/request-payout/card', cardPayload(offerId, GOOD_CARD, { expire_year: 2001 }));
    expect(expired.json().errors.expire_year).toEqual(['Please enter a valid expiry year']);
    const noContact = await client.post('/api/offer/request-payout/card', { ...cardPayload(offerId), post_code: '', terms: false });
    expect(noContact.json().errors.post_code).toEqual(['Post code is required.']);
    expect(noContact.json().errors.terms).toEqual(['Please agree to the terms and conditions.']);

    // The contact dialog is prefilled from the profile before the first payout.
    const prefill = (await client.get('/api/offer/contact-details')).json().payload;
    expect(prefill).toEqual({
      first_name: person.name,
      last_name: person.surname,
      email: person.email,
      phone: person.phone,
      address: '',
      city: '',
      post_code: '',
      country: null,
      currency: 'EUR',
    });

    const payout = await client.post('/api/offer/request-payout/card', cardPayload(offerId));
    expect(payout.statusCode).toBe(200);
    expect(payout.json()).toMatchObject({ message: expect.stringContaining('Deal is completed'), payload: { status: 'payout_processing' } });
    // Paying twice is refused while the first payout runs.
    const twice = await client.post('/api/offer/request-payout/card', cardPayload(offerId));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This offer is being paid out and cannot be paid out now.');

    const queued = (await admin.get('/api/admin/payouts?status=processing')).json().payload.find((p: { offer_id: number }) => p.offer_id === offerId);
    expect(queued).toMatchObject({ method: 'card', amount: 40, status: 'processing', destination: 'visa •••• 4242' });

    const acquisitions = await systemAccountId(t.app.db, OFFER_ACQUISITIONS);
    const clearing = await systemAccountId(t.app.db, clearingAccountCode('payout-sandbox'));
    const balance = async (accountId: number) =>
      Number(
        rowsOf<{ balance_minor: string | number }>(await t.app.db.execute(sql`select balance_minor from ledger_accounts where id = ${accountId}`))[0]!
          .balance_minor,
      );
    const [acquisitionsBefore, clearingBefore] = [await balance(acquisitions), await balance(clearing)];

    await t.app.jobs.runDue(); // not yet: the sandbox settles after its delay
    expect((await offerRow(offerId)).status).toBe('payout_processing');
    await runJobsAfter(60);
    const paid = await offerRow(offerId);
    expect(paid.status).toBe('paid');
    expect((await client.get('/api/offer/history')).json().payload[0].status).toBe('paid');
    expect(await balance(acquisitions)).toBe(acquisitionsBefore - 4000);
    expect(await balance(clearing)).toBe(clearingBefore + 4000);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
    expect((await lastMailTo(t.app, person.email))?.text).toContain('Deal is completed');
    expect((await client.post('/api/offer/request-payout/card', cardPayload(offerId))).statusCode).toBe(409);
    // ...and remembered from it for the next one.
    expect((await client.get('/api/offer/contact-details')).json().payload).toMatchObject({
      address: 'Rua Augusta 1',
      city: 'Lisboa',
      post_code: '1100-048',
      country: 620,
    });

    const events = await t.app.db.select().from(offerEvents).where(eq(offerEvents.offerId, offerId)).orderBy(offerEvents.id);
    expect(events.map((e) => `${e.fromStatus}>${e.toStatus}:${e.actor}`)).toEqual([
      'null>pending:creator',
      'pending>offer:staff',
      'offer>approved:creator',
      'approved>payout_processing:creator',
      'payout_processing>paid:system',
    ]);
    // One e-mail to the creator per move.
    const mails = (await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.to, person.email)).orderBy(mailOutbox.id)).filter((m) =>
      m.subject.startsWith('Your offer'),
    );
    expect(mails.map((m) => m.subject.replace(/^.*: /, ''))).toEqual(['pending', 'offer', 'approved', 'payout processing', 'paid']);

    // PCI DSS: the card number is nowhere in the database, only brand and last four.
    const [stored] = await t.app.db.select().from(payouts).where(eq(payouts.offerId, offerId));
    expect(stored).toMatchObject({ cardBrand: 'visa', cardLast4: '4242', status: 'paid' });
    const dump = await t.app.db.execute(
      sql`select (select coalesce(json_agg(p), '[]') from payouts p)::text || (select coalesce(json_agg(j), '[]') from jobs j)::text || (select coalesce(json_agg(m), '[]') from mail_outbox m)::text || (select coalesce(json_agg(e), '[]') from offer_events e)::text || (select coalesce(json_agg(o), '[]') from offers o)::text as dump`,
    );
    const text = String(rowsOf<{ dump: string }>(dump)[0]!.dump);
    expect(text).toContain('4242');
    expect(text).not.toContain('4242424242424242');
    expect(text).not.toContain(GOOD_CARD);
    const log = logLines.join('\n');
    expect(log).toContain('payout requested');
    expect(log).not.toContain('4242424242424242');
    expect(log).not.toContain(GOOD_CARD);

    // Staff set the list price and publish through the existing product route.
    const publish = await admin.request('PATCH', `/api/admin/products/${product!.id}`, { body: { status: 'published', price: 99 } });
    expect(publish.statusCode).toBe(200);
    expect((await new TestClient(t.app).get(`/api/products/${product!.slug}/info`)).statusCode).toBe(200);
  });

  it("the creator's bell hears of staff moves and the paid payout, not of the creator's own moves", async () => {
    const { client, offerId } = await counteredOffer(40);
    const bell = async () =>
      (await client.get('/api/notifications')).json() as { payload: { kind: string; text: string; link: string }[]; meta: { unread_count: number } };
    const afterCounter = await bell();
    expect(afterCounter.payload).toEqual([
      expect.objectContaining({
        kind: 'offer_status',
        text: expect.stringMatching(/^We made an offer for ".*"\. Open My projects to accept or decline it\.$/),
        link: '/dashboard',
      }),
    ]);
    expect((await client.post('/api/offer/approve', { id: offerId })).statusCode).toBe(200);
    expect((await client.post('/api/offer/request-payout/card', cardPayload(offerId))).statusCode).toBe(200);
    expect((await bell()).payload).toHaveLength(1);
    await runJobsAfter(60);
    const afterPaid = await bell();
    expect(afterPaid.payload.map((n) => n.kind)).toEqual(['payout_paid', 'offer_status']);
    expect(afterPaid.payload[0]!.text).toContain('is paid');
    expect(afterPaid.meta.unread_count).toBe(2);
  });

  it('two payout requests at once: one payout, the other 409', async () => {
    const { client, offerId } = await counteredOffer(15);
    await client.post('/api/offer/approve', { id: offerId });
    const answers = await Promise.all([
      client.post('/api/offer/request-payout/card', cardPayload(offerId)),
      client.post('/api/offer/request-payout/card', cardPayload(offerId)),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await t.app.db.select().from(payouts).where(eq(payouts.offerId, offerId))).toHaveLength(1);
  });

  it('a failed payout returns the offer to approved with the reason; a second try can succeed', async () => {
    const { client, person, offerId } = await counteredOffer(25);
    await client.post('/api/offer/approve', { id: offerId });
    const res = await client.post('/api/offer/request-payout/card', cardPayload(offerId, FAILING_CARD));
    expect(res.statusCode).toBe(200);
    await runJobsAfter(60);
    const failed = (await client.get('/api/offer/history')).json().payload[0];
    expect(failed).toMatchObject({ status: 'approved', status_note: 'The card issuer declined the payout.' });
    expect((await lastMailTo(t.app, person.email))?.text).toContain('The card issuer declined the payout.');
    // Issue 18: the bell says the payout failed and why, never 'is now approved'.
    const [notice] = (await client.get('/api/notifications')).json().payload as { text: string }[];
    expect(notice!.text).toMatch(/^Your payout for ".*" failed: The card issuer declined the payout\. Check your payment details and request it again\.$/);
    const [p] = await t.app.db.select().from(payouts).where(eq(payouts.offerId, offerId));
    expect(p).toMatchObject({ status: 'failed', failureReason: 'The card issuer declined the payout.', cardLast4: '0002' });

    expect((await client.post('/api/offer/request-payout/card', cardPayload(offerId))).statusCode).toBe(200);
    await runJobsAfter(60);
    expect((await offerRow(offerId)).status).toBe('paid');
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it('a SEPA payout keeps the IBAN encrypted and masked, and staff mark the transfer done', async () => {
    const { client, offerId, admin } = await counteredOffer(30);
    await client.post('/api/offer/approve', { id: offerId });
    const sepa = (over: Record<string, unknown> = {}) => ({
      ...cardPayload(offerId),
      paymentType: 'sepa',
      account_number: IBAN,
      recipient_full_name: 'Ines Duarte',
      ...over,
    });
    const bad = await client.post('/api/offer/request-payout/sepa', sepa({ account_number: 'DE89370400440532013001' }));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.account_number).toEqual(['Please enter a valid IBAN']);
    expect((await client.post('/api/offer/request-payout/sepa', sepa({ account_number: '' }))).json().errors.account_number).toEqual(['IBAN is required']);

    expect((await client.post('/api/offer/request-payout/sepa', sepa({ account_number: 'de89 3704 0044 0532 0130 00' }))).statusCode).toBe(200);
    const [row] = await t.app.db.select().from(payouts).where(eq(payouts.offerId, offerId));
    expect(row).toMatchObject({ method: 'sepa', ibanMasked: 'DE89 •••• 3000', status: 'processing' });
    expect(row!.ibanEncrypted).not.toContain(IBAN);
    const dump = await t.app.db.execute(sql`select (select json_agg(p) from payouts p)::text as d`);
    expect(String(rowsOf<{ d: string }>(dump)[0]!.d)).not.toContain(IBAN);
    expect(logLines.join('\n')).not.toContain(IBAN);

    await runJobsAfter(3600); // SEPA waits for staff
    expect((await offerRow(offerId)).status).toBe('payout_processing');
    const listed = (await admin.get('/api/admin/payouts')).json().payload.find((p: { id: number }) => p.id === row!.id);
    expect(listed.destination).toBe('DE89 •••• 3000');
    // The bank file: pain.001 with the full IBAN, for staff only.
    expect((await admin.get('/api/admin/payouts/sepa-export')).statusCode).toBe(422);
    const xml = await admin.get('/api/admin/payouts/sepa-export?debtor_iban=FR1420041010050500013M02606&debtor_name=Atelier%20SAS');
    expect(xml.statusCode).toBe(200);
    expect(xml.headers['content-type']).toContain('application/xml');
    expect(xml.headers['content-disposition']).toContain('attachment');
    expect(xml.body).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001.001.03');
    expect(xml.body).toContain(`<EndToEndId>PAYOUT-${row!.id}</EndToEndId>`);
    expect(xml.body).toContain(`<InstdAmt Ccy="EUR">30.00</InstdAmt></Amt><Cdtr><Nm>Ines Duarte</Nm></Cdtr><CdtrAcct><Id><IBAN>${IBAN}</IBAN>`);
    expect(xml.body).toContain('<DbtrAcct><Id><IBAN>FR1420041010050500013M02606</IBAN>');
    expect((await admin.post(`/api/admin/payouts/${row!.id}/complete`, { outcome: 'failed' })).statusCode).toBe(422);
    // Marking a bank transfer paid takes its reference: stored, shown in the queue, audited.
    const noReference = await admin.post(`/api/admin/payouts/${row!.id}/complete`, { outcome: 'paid' });
    expect(noReference.statusCode).toBe(422);
    expect(noReference.json().errors.reference).toEqual(["Please give the transfer's reference from your bank statement."]);
    const done = await admin.post(`/api/admin/payouts/${row!.id}/complete`, { outcome: 'paid', reference: 'SEPA-2026-0042' });
    expect(done.statusCode).toBe(200);
    expect(done.json().payload).toMatchObject({ status: 'paid', transfer_reference: 'SEPA-2026-0042', provider: 'sandbox' });
    const shown = (await admin.get('/api/admin/payouts?status=paid')).json().payload.find((p: { id: number }) => p.id === row!.id);
    expect(shown.transfer_reference).toBe('SEPA-2026-0042');
    expect((await offerRow(offerId)).status).toBe('paid');
    const again = await admin.post(`/api/admin/payouts/${row!.id}/complete`, { outcome: 'failed', reason: 'bounced' });
    expect(again.statusCode).toBe(409);
    expect((await offerRow(offerId)).status).toBe('paid');
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
