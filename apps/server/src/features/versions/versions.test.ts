import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { firstCategoryId, fund, seededProducts } from '../../../test/commerce';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { auditLog, mailOutbox, offers, products } from '../../db/schema';

const t = useTestApp({ seed: true });
let categoryId: number;
beforeAll(async () => {
  categoryId = await firstCategoryId(t.app);
});

const png = (color: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
    .png()
    .toBuffer();

/** A multipart form: text fields and at most one file part. */
function form(fields: Record<string, string>, file?: { field: string; name: string; type: string; data: Buffer }) {
  const boundary = `----atelier${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
    );
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A creator's PNG listing, approved by staff: its product id, and the staff member. */
async function listedWork(creator: TestClient) {
  const created = await creator.request(
    'POST',
    '/api/offer/create',
    form(
      {
        title: 'Harbour at dawn',
        description: 'Soft light.',
        category_id: String(categoryId),
        price: '10',
        confirm: 'true',
        keywords: 'Impressionism',
        deal_type: 'listing',
      },
      { field: 'media', name: 'harbour.png', type: 'image/png', data: await png('#3366cc') },
    ),
  );
  expect(created.statusCode).toBe(200);
  const staff = await registerStaff(t.app);
  expect((await staff.client.post(`/api/admin/offers/${created.json().payload.id}/approve`)).statusCode).toBe(200);
  const [row] = await t.app.db.select({ productId: offers.productId }).from(offers).where(eq(offers.id, created.json().payload.id));
  return { productId: row!.productId!, staff };
}

const postVersion = (client: TestClient, productId: number, fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) =>
  client.request('POST', `/api/seller/products/${productId}/versions`, form(fields, file && { field: 'file', ...file }));

async function buyer(productId: number) {
  const person = await registerPerson(t.app);
  await fund(t.app, person.id, 5000);
  const bought = await person.client.post('/api/purchase/buy', { item_id: productId });
  expect(bought.statusCode).toBe(200);
  return { ...person, orderId: bought.json().payload.order.id as number };
}

const download = (client: TestClient, orderId: number, productId: number) => client.get(`/api/user/media/download?id=${orderId}&product_id=${productId}`);
const mailsTo = (email: string) =>
  t.app.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email)));
const bell = async (client: TestClient) => (await client.get('/api/notifications')).json().payload as { kind: string; text: string; link: string }[];

describe('product updates (issue 34)', () => {
  it('a new version of the same type is published at once, reaches every buyer (not one who turned it off) and is what the download gives', async () => {
    const creator = await registerSeller(t.app);
    const { productId, staff } = await listedWork(creator.client);
    const [first, second, quiet] = [await buyer(productId), await buyer(productId), await buyer(productId)];
    // A buyer through a pack of the work and another one owns it too.
    const [other] = await seededProducts(t.app, 'image');
    const pack = await staff.client.post('/api/admin/packs', { title: 'Harbour pair', price: 12, product_ids: [productId, other!.id], status: 'published' });
    expect(pack.statusCode).toBe(200);
    const packBuyer = await registerPerson(t.app);
    await fund(t.app, packBuyer.id, 5000);
    expect((await packBuyer.client.post('/api/purchase/pack', { pack_id: pack.json().payload.id })).statusCode).toBe(200);
    // The third buyer turned new-version e-mails and bell notices off.
    const off = await quiet.client.put('/api/user/notification-preferences', { preferences: [{ kind: 'product_updated', bell: false, email: false }] });
    expect(off.statusCode).toBe(200);
    const before = await download(first.client, first.orderId, productId);
    expect(before.statusCode).toBe(200);

    const newFile = await png('#cc3333');
    const res = await postVersion(
      creator.client,
      productId,
      { notes: 'Warmer colours, higher contrast.' },
      { name: 'harbour-v2.png', type: 'image/png', data: newFile },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ number: 2, status: 'published', notes: 'Warmer colours, higher contrast.', format: 'PNG' });
    expect(res.json().message).toMatch(/published/);

    // The download gives the new file, byte for byte.
    const after = await download(first.client, first.orderId, productId);
    expect(after.statusCode).toBe(200);
    expect(after.rawPayload.equals(newFile)).toBe(true);
    expect(after.rawPayload.equals(before.rawPayload)).toBe(false);

    // Buyers are told by a job after the commit: the bell and an e-mail each; twice run, once told.
    await t.app.jobs.runDue();
    await t.app.jobs.runDue();
    for (const b of [first, second, packBuyer]) {
      const notices = (await bell(b.client)).filter((n) => n.kind === 'product_updated');
      expect(notices).toEqual([expect.objectContaining({ text: expect.stringContaining('“Harbour at dawn”'), link: '/dashboard/orders' })]);
      const mails = (await mailsTo(b.email)).filter((m) => m.subject === 'New version of “Harbour at dawn”');
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain('What changed: Warmer colours, higher contrast.');
    }
    expect((await bell(quiet.client)).some((n) => n.kind === 'product_updated')).toBe(false);
    expect((await mailsTo(quiet.email)).some((m) => m.subject.startsWith('New version'))).toBe(false);
    // The creator is not told of their own update.
    expect((await bell(creator.client)).some((n) => n.kind === 'product_updated')).toBe(false);

    // Earlier versions stay listed with their notes and dates, for buyers and for the public page.
    const list = await first.client.get(`/api/products/${productId}/versions`);
    expect(list.statusCode).toBe(200);
    expect(list.json().payload.updated_at).toEqual(expect.any(String));
    expect(list.json().payload.versions).toEqual([
      expect.objectContaining({ number: 2, notes: 'Warmer colours, higher contrast.', status: 'published', published_at: expect.any(String) }),
      expect.objectContaining({ number: 1, notes: '', status: 'published', format: 'PNG' }),
    ]);
    const guest = await t.app.inject({ method: 'GET', url: `/api/products/${productId}/versions` });
    expect(guest.json().payload.versions.map((v: { number: number }) => v.number)).toEqual([2, 1]);
  });

  it('a file of another type waits for staff review; approval publishes it and tells buyers, rejection keeps the old file', async () => {
    const creator = await registerSeller(t.app);
    const { productId, staff } = await listedWork(creator.client);
    const b = await buyer(productId);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
    const res = await postVersion(creator.client, productId, { notes: 'Now as a printable PDF.' }, { name: 'harbour.pdf', type: 'application/pdf', data: pdf });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ number: 2, status: 'pending_review' });
    expect(res.json().message).toMatch(/reviewed/);
    // Nothing changes for buyers meanwhile; the public list does not show it; the creator sees it waiting.
    const old = await download(b.client, b.orderId, productId);
    expect(old.headers['content-type']).toBe('image/png');
    expect((await b.client.get(`/api/products/${productId}/versions`)).json().payload.versions.map((v: { number: number }) => v.number)).toEqual([1]);
    expect((await creator.client.get(`/api/products/${productId}/versions`)).json().payload.versions[0]).toMatchObject({ number: 2, status: 'pending_review' });
    // One review at a time.
    const again = await postVersion(creator.client, productId, { notes: 'Another.' }, { name: 'h.png', type: 'image/png', data: await png('#00ff00') });
    expect(again.statusCode).toBe(409);

    // Staff see it in the queue, with both types; only staff.
    const queue = await staff.client.get('/api/admin/versions');
    const queued = (queue.json().payload as { id: number; current_type: string; new_type: string; product: { id: number } }[]).find(
      (v) => v.product.id === productId,
    );
    expect(queued).toMatchObject({ current_type: 'png', new_type: 'pdf' });
    expect((await creator.client.get('/api/admin/versions')).statusCode).toBe(403);
    expect((await creator.client.post(`/api/admin/versions/${queued!.id}/approve`)).statusCode).toBe(403);
    const file = await staff.client.get(`/api/admin/versions/${queued!.id}/file`);
    expect(file.statusCode).toBe(200);

    const approved = await staff.client.post(`/api/admin/versions/${queued!.id}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().payload).toMatchObject({ status: 'published' });
    expect((await staff.client.post(`/api/admin/versions/${queued!.id}/approve`)).statusCode).toBe(409);
    const now = await download(b.client, b.orderId, productId);
    expect(now.headers['content-type']).toBe('application/pdf');
    expect(now.rawPayload.equals(pdf)).toBe(true);
    const [product] = await t.app.db.select({ productType: products.productType }).from(products).where(eq(products.id, productId));
    expect(product!.productType).toBe('doc');
    await t.app.jobs.runDue();
    expect((await bell(b.client)).filter((n) => n.kind === 'product_updated')).toHaveLength(1);
    const audit = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'version.approve'), eq(auditLog.subjectId, productId)));
    expect(audit).toHaveLength(1);

    // Back to an image: review again; this time rejected with a reason, and the PDF stays.
    const third = await postVersion(creator.client, productId, { notes: 'Back to PNG.' }, { name: 'h.png', type: 'image/png', data: await png('#00ff00') });
    expect(third.json().payload).toMatchObject({ number: 3, status: 'pending_review' });
    const rejected = await staff.client.post(`/api/admin/versions/${third.json().payload.id}/reject`, { reason: 'The image is blank.' });
    expect(rejected.statusCode).toBe(200);
    expect((await download(b.client, b.orderId, productId)).headers['content-type']).toBe('application/pdf');
    const mine = (await creator.client.get(`/api/products/${productId}/versions`)).json().payload.versions;
    expect(mine[0]).toMatchObject({ number: 3, status: 'rejected', review_note: 'The image is blank.' });
    const mails = await mailsTo(creator.email);
    expect(mails.some((m) => m.subject.includes('not approved') && m.text.includes('The image is blank.'))).toBe(true);
  });

  it('only the creator may ship a version: another user gets a 404, a guest a 401', async () => {
    const creator = await registerSeller(t.app);
    const { productId } = await listedWork(creator.client);
    const other = await registerSeller(t.app);
    const res = await postVersion(other.client, productId, { notes: 'Mine now.' }, { name: 'x.png', type: 'image/png', data: await png('#000000') });
    expect(res.statusCode).toBe(404);
    const guest = await t.app.inject({ method: 'POST', url: `/api/seller/products/${productId}/versions`, ...form({ notes: 'x' }) });
    expect([401, 419]).toContain(guest.statusCode);
    // Nothing changed: no version was written.
    expect((await creator.client.get(`/api/products/${productId}/versions`)).json().payload.versions).toEqual([]);
  });

  it('bad input is a 422 with a message per field', async () => {
    const creator = await registerSeller(t.app);
    const { productId } = await listedWork(creator.client);
    const noFile = await postVersion(creator.client, productId, { notes: 'Fixed a typo.' });
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json().errors).toEqual({ file: ['Please upload a file.'] });

    const long = await postVersion(creator.client, productId, { notes: 'x'.repeat(2001) }, { name: 'a.png', type: 'image/png', data: await png('#111111') });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors).toEqual({ notes: ['The notes may be at most 2000 characters.'] });

    const empty = await postVersion(creator.client, productId, { notes: '  ' }, { name: 'a.png', type: 'image/png', data: await png('#111111') });
    expect(empty.json().errors.notes).toEqual(['Please say what changed in this version.']);

    const exe = await postVersion(
      creator.client,
      productId,
      { notes: 'New build.' },
      { name: 'tool.exe', type: 'application/octet-stream', data: Buffer.from('MZ\x90\x00') },
    );
    expect(exe.statusCode).toBe(422);
    expect(exe.json().errors.file).toEqual(['File type not supported']);

    const liar = await postVersion(creator.client, productId, { notes: 'New colours.' }, { name: 'a.png', type: 'image/png', data: Buffer.from('just text') });
    expect(liar.statusCode).toBe(422);
    expect(liar.json().errors.file).toEqual(["The file's contents do not match its .png name."]);
    expect((await creator.client.get(`/api/products/${productId}/versions`)).json().payload.versions).toEqual([]);
  });
});
