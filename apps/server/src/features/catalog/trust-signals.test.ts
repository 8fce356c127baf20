import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { fund, seededProducts } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { categories, products } from '../../db/schema';
import { countWords, describeFile } from '../../lib/file-meta';
import { buildZip } from '../../lib/zip';
import { describeUnmeasuredFiles } from './describe-files';

/**
 * Issue 31 item 7: a product page's trust signals. How many bought the work and kept it, what the
 * file is, and whether a review's writer bought the work (or had it refunded).
 */
const t = useTestApp({ seed: true });

const PROMPT = 'A lighthouse at dusk, long exposure, teal and amber';

async function storedBytes(key: string): Promise<Buffer> {
  const file = await t.app.storage.openPrivate(key);
  const chunks: Buffer[] = [];
  for await (const chunk of file!.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Refunded by staff after the buyer asked (features/refunds). */
async function refund(buyer: TestClient, staff: TestClient, orderId: number) {
  const asked = await buyer.post(`/api/orders/${orderId}/refund-request`, { reason: 'broken_file', message: 'The text is cut off.' });
  expect(asked.statusCode).toBe(200);
  const body = asked.json();
  const id = (body.refund_request ?? body.payload).id as number;
  expect((await staff.post(`/api/admin/refund-requests/${id}/resolve`, { decision: 'refund', note: 'Refunded.' })).statusCode).toBe(200);
}

describe('a product page', () => {
  it('counts the sales that stand (a refunded one does not), and marks verified and refunded reviews', async () => {
    const creator = await registerSeller(t.app);
    const staff = await registerStaff(t.app);
    const [midjourney] = await t.app.db.select().from(categories).where(eq(categories.url, 'prompts/midjourney'));
    const [prompt] = await t.app.db
      .insert(products)
      .values({
        slug: `trust-prompt-${creator.id}`,
        title: 'Lighthouse',
        productType: 'prompt',
        promptText: PROMPT,
        authorId: creator.id,
        priceMinor: 400,
        categoryId: midjourney!.id,
      })
      .returning();
    const p = prompt!;

    const buyers = [await registerPerson(t.app), await registerPerson(t.app), await registerPerson(t.app)];
    const orders: number[] = [];
    for (const [i, b] of buyers.entries()) {
      await fund(t.app, b.id, 400);
      const bought = await b.client.post('/api/purchase/prompt', { prompt_id: p.id });
      expect(bought.statusCode).toBe(200);
      orders.push(bought.json().payload.order.id);
      expect((await b.client.post(`/api/products/${p.id}/reviews`, { rating: 5 - i, text: `Review ${i}` })).statusCode).toBe(200);
    }
    // The third buyer has their money back.
    await refund(buyers[2]!.client, staff.client, orders[2]!);

    const info = await new TestClient(t.app).get(`/api/products/${p.slug}/info`);
    expect(info.statusCode).toBe(200);
    expect(info.json().payload).toMatchObject({
      sales_count: 2,
      // As the download gives it: the text and a line break, a .txt of 9 words, for Midjourney.
      file: { format: 'TXT', bytes: Buffer.byteLength(`${PROMPT}\n`), words: 9, model: 'Midjourney' },
    });

    const reviews = (await buyers[0]!.client.get(`/api/products/${p.id}/reviews?sort=highest`)).json();
    expect(reviews.payload.map((r: { text: string; verified_purchase: boolean; refunded: boolean }) => [r.text, r.verified_purchase, r.refunded])).toEqual([
      ['Review 0', true, false],
      ['Review 1', true, false],
      ['Review 2', false, true],
    ]);
    // The refunded buyer sees their own review marked too.
    const own = (await buyers[2]!.client.get(`/api/products/${p.id}/reviews`)).json();
    expect(own.meta.mine).toMatchObject({ text: 'Review 2', verified_purchase: false, refunded: true });
  });

  it('says what an image and a document are once measured: format, bytes, pixels or words; a pack has no file of its own', async () => {
    // The demo works were stored before anything measured them: the job does, a batch at a time.
    while ((await describeUnmeasuredFiles(t.app.db, t.app.storage)) > 0);
    const [image] = await seededProducts(t.app, 'image');
    const [doc] = await seededProducts(t.app, 'doc');
    const [pack] = await seededProducts(t.app, 'pack');
    const guest = new TestClient(t.app);

    const imageBytes = await storedBytes(image!.originalPath!);
    const { width, height } = await sharp(imageBytes).metadata();
    const imageInfo = (await guest.get(`/api/products/${image!.slug}/info?currency=EUR`)).json().payload;
    expect(imageInfo.file).toEqual({ format: 'PNG', bytes: imageBytes.length, width, height });
    expect(width).toBeGreaterThan(0);

    const docBytes = await storedBytes(doc!.originalPath!);
    const docInfo = (await guest.get(`/api/products/${doc!.slug}/info?currency=EUR`)).json().payload;
    expect(docInfo.file).toEqual({ format: 'TXT', bytes: docBytes.length, words: countWords(docBytes.toString('utf8')) });
    expect(docInfo.file.words).toBeGreaterThan(10);

    const packInfo = (await guest.get(`/api/packs/${pack!.slug}/info`)).json().payload;
    expect(packInfo).toMatchObject({ product_type: 'pack', file: null, sales_count: expect.any(Number) });
  });
});

describe('measuring a file', () => {
  it('reads pixels, PDF pages, DOCX pages and words, and text words; what it cannot read it leaves out', async () => {
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    expect(await describeFile('a.png', png)).toEqual({ format: 'PNG', bytes: png.length, width: 30, height: 20 });
    expect(await describeFile('a.jpeg', Buffer.from('not a jpeg'))).toEqual({ format: 'JPG', bytes: 10 });
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Pages /Count 2>>\n2 0 obj <</Type /Page>>\n3 0 obj <</Type/Page /Parent 1 0 R>>\n%%EOF');
    expect(await describeFile('Essay.PDF', pdf)).toEqual({ format: 'PDF', bytes: pdf.length, pages: 2 });
    const docx = buildZip([
      { name: 'docProps/app.xml', data: Buffer.from('<Properties><Pages>3</Pages><Words>999</Words></Properties>') },
      {
        name: 'word/document.xml',
        data: Buffer.from('<w:document><w:body><w:p><w:r><w:t>Four words in</w:t></w:r></w:p><w:p><w:t>here</w:t></w:p></w:body></w:document>'),
      },
    ]);
    expect(await describeFile('report.docx', docx)).toEqual({ format: 'DOCX', bytes: docx.length, pages: 3, words: 4 });
    expect(await describeFile('notes.txt', Buffer.from('One — two, three!\n'))).toEqual({ format: 'TXT', bytes: 20, words: 3 });
    expect(await describeFile('old.doc', Buffer.alloc(12))).toEqual({ format: 'DOC', bytes: 12 });
  });
});
