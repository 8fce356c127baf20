import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson } from '../../../test/accounts';
import { fund, seededProducts } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { unzip } from '../../../test/zip';
import { products } from '../../db/schema';

/** Issue 31 item 7: "Download all" of a pack is one ZIP of the files its buyer owns; nobody else gets it. */
const t = useTestApp({ seed: true });

async function storedBytes(key: string): Promise<Buffer> {
  const file = await t.app.storage.openPrivate(key);
  const chunks: Buffer[] = [];
  for await (const chunk of file!.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('a pack\'s "Download all"', () => {
  it("streams one ZIP of the pack's files to its buyer; a second user, a guest and a bad id get 404, 401 and 422", async () => {
    const [pack] = await seededProducts(t.app, 'pack');
    const buyer = await registerPerson(t.app);
    await fund(t.app, buyer.id, pack!.priceMinor);
    const guest = new TestClient(t.app);
    const before = (await guest.get(`/api/packs/${pack!.slug}/info`)).json().payload;
    const firstItem = before.items[0] as { slug: string };
    const itemBefore = (await guest.get(`/api/products/${firstItem.slug}/info`)).json().payload;

    // Not bought yet: nothing to download.
    const url = `/api/user/media/download-pack?pack_id=${pack!.id}`;
    expect((await buyer.client.get(url)).statusCode).toBe(404);
    expect((await buyer.client.post('/api/purchase/pack', { pack_id: pack!.id })).statusCode).toBe(200);

    const owned = (await buyer.client.get(`/api/purchase/owned?product_id=${pack!.id}`)).json().payload;
    expect(owned.download_all_url).toBe(url);
    expect(owned.downloads.length).toBeGreaterThanOrEqual(2);

    const res = await buyer.client.get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".+\.zip"/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const entries = unzip(res.rawPayload);
    // One file per item the buyer got, each the bought original byte for byte.
    // ...and the pack's licence (issue 34): the commercial licence, naming the buyer, the pack and the order.
    const licence = entries.get('LICENCE.txt')?.toString('utf8') ?? '';
    entries.delete('LICENCE.txt');
    expect(licence).toContain(`Work: ${pack!.title}`);
    expect(licence).toContain('Licence: Commercial licence (commercial)');
    expect(licence).toContain(`Order number: ${owned.order_id}`);
    expect(entries.size).toBe(owned.downloads.length);
    const items = before.items as { id: number; slug: string; product_type: string }[];
    const rows = await t.app.db
      .select()
      .from(products)
      .where(
        inArray(
          products.id,
          items.map((i) => i.id),
        ),
      );
    const contents = [...entries.values()].map((b) => b.toString('base64')).sort();
    const expected = await Promise.all(
      rows.map(async (r) => (r.productType === 'prompt' ? Buffer.from(`${r.promptText}\n`) : await storedBytes(r.originalPath!)).toString('base64')),
    );
    expect(contents).toEqual(expected.sort());

    // The pack and each of its works count the sale.
    // (Another currency: a new answer, not the one cached a moment ago.)
    expect((await guest.get(`/api/packs/${pack!.slug}/info?currency=EUR`)).json().payload.sales_count).toBe(before.sales_count + 1);
    expect((await guest.get(`/api/products/${firstItem.slug}/info?currency=EUR`)).json().payload.sales_count).toBe(itemBefore.sales_count + 1);

    // Anyone else: a second user 404 (as for a pack that does not exist), a guest 401, a bad id 422.
    const stranger = await registerPerson(t.app);
    expect((await stranger.client.get(url)).statusCode).toBe(404);
    expect((await stranger.client.get(`/api/purchase/owned?product_id=${pack!.id}`)).json().payload.download_all_url).toBeUndefined();
    expect((await guest.get(url)).statusCode).toBe(401);
    expect((await buyer.client.get('/api/user/media/download-pack?pack_id=abc')).statusCode).toBe(422);
    expect((await buyer.client.get('/api/user/media/download-pack?pack_id=999999999')).statusCode).toBe(404);
    // A work the buyer owns is no pack: 404.
    expect((await buyer.client.get(`/api/user/media/download-pack?pack_id=${items[0]!.id}`)).statusCode).toBe(404);
  });
});
