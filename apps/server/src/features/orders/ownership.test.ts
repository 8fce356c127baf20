import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerUser } from '../../../test/accounts';
import { fund, seededProducts, userIdByEmail } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { packItems, products } from '../../db/schema';

const t = useTestApp({ seed: true });

describe('GET /api/purchase/owned', () => {
  it('a guest gets 401; a bad product id is a 422', async () => {
    expect((await new TestClient(t.app).get('/api/purchase/owned?product_id=1')).statusCode).toBe(401);
    const { client } = await registerUser(t.app);
    const res = await client.get('/api/purchase/owned?product_id=abc');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.product_id).toBeDefined();
  });

  it('says not owned before a purchase, and owned with the download after', async () => {
    const [image] = await seededProducts(t.app, 'image');
    const { client, person } = await registerUser(t.app);
    await fund(t.app, await userIdByEmail(t.app, person.email), Number(image!.priceMinor));
    const before = await client.get(`/api/purchase/owned?product_id=${image!.id}`);
    expect(before.statusCode).toBe(200);
    expect(before.json().payload).toEqual({ owned: false, order_id: null, downloads: [] });

    const bought = await client.post('/api/purchase/buy', { item_id: image!.id });
    const orderId = bought.json().payload.order.id;
    const after = (await client.get(`/api/purchase/owned?product_id=${image!.id}`)).json().payload;
    expect(after).toEqual({
      owned: true,
      order_id: orderId,
      downloads: [{ product_id: image!.id, title: image!.title, url: `/api/user/media/download?id=${orderId}&product_id=${image!.id}` }],
      // Issue 34: bought without a licence named, it is the commercial one.
      licence_tier: 'commercial',
    });
    const file = await client.get(after.downloads[0].url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment/);

    // Another user does not own it.
    const other = await registerUser(t.app);
    expect((await other.client.get(`/api/purchase/owned?product_id=${image!.id}`)).json().payload.owned).toBe(false);
  });

  it('a bought pack is owned with one download per item, and each item counts as owned too', async () => {
    const [pack] = await seededProducts(t.app, 'pack');
    const contents = await t.app.db
      .select({ id: products.id, title: products.title })
      .from(packItems)
      .innerJoin(products, eq(products.id, packItems.productId))
      .where(eq(packItems.packId, pack!.id))
      .orderBy(asc(packItems.position));
    const { client, person } = await registerUser(t.app);
    await fund(t.app, await userIdByEmail(t.app, person.email), Number(pack!.priceMinor));
    const orderId = (await client.post('/api/purchase/pack', { pack_id: pack!.id })).json().payload.order.id;

    const owned = (await client.get(`/api/purchase/owned?product_id=${pack!.id}`)).json().payload;
    expect(owned.owned).toBe(true);
    expect(owned.order_id).toBe(orderId);
    expect(owned.downloads.map((d: { product_id: number }) => d.product_id)).toEqual(contents.map((c) => c.id));
    const item = (await client.get(`/api/purchase/owned?product_id=${contents[0]!.id}`)).json().payload;
    expect(item).toMatchObject({ owned: true, order_id: orderId, downloads: [{ product_id: contents[0]!.id, title: contents[0]!.title }] });
  });
});
