import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerUser } from '../../../test/accounts';
import { balanceMinor, fund, seededProducts, userIdByEmail } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { packItems, products } from '../../db/schema';
import { checkLedger } from '../ledger';

const t = useTestApp({ seed: true });

async function buyer() {
  const { client, person } = await registerUser(t.app);
  return { client, person, id: await userIdByEmail(t.app, person.email) };
}

describe('cart', () => {
  it('a guest gets 401 on every cart call', async () => {
    const guest = new TestClient(t.app);
    expect((await guest.get('/api/cart')).statusCode).toBe(401);
    expect((await guest.post('/api/cart/items', { product_type: 'image', product_id: 1 })).statusCode).toBe(401);
    expect((await guest.delete('/api/cart/items/1')).statusCode).toBe(401);
    expect((await guest.post('/api/cart/checkout')).statusCode).toBe(401);
    expect((await guest.post('/api/cart/purchase')).statusCode).toBe(401);
  });

  it('adds, keeps one line per product, removes, and prices in the display currency', async () => {
    const [image] = await seededProducts(t.app, 'image');
    const [pack] = await seededProducts(t.app, 'pack');
    const b = await buyer();
    expect((await b.client.get('/api/cart')).json().payload).toEqual({ items: [], total: 0, currency: 'EUR', currencySymbol: '€' });
    const first = await b.client.post('/api/cart/items', { product_type: 'image', product_id: image!.id });
    expect(first.statusCode).toBe(200);
    await b.client.post('/api/cart/items', { product_type: 'image', product_id: image!.id });
    const added = await b.client.post('/api/cart/items', { product_type: 'pack', product_id: pack!.id });
    const cart = added.json().payload;
    expect(cart.items).toHaveLength(2);
    expect(cart.items[0]).toEqual({
      id: expect.any(Number),
      product_id: image!.id,
      product_type: 'image',
      title: image!.title,
      slug: image!.slug,
      imageUrl: `/storage/${image!.previewPath}`,
      price: Number(image!.priceMinor) / 100,
      // Issue 34: a line added without a licence is bought with the commercial one.
      licence_tier: 'commercial',
      licences: [{ tier: 'commercial', price: Number(image!.priceMinor) / 100 }],
    });
    expect(cart.total).toBe((Number(image!.priceMinor) + Number(pack!.priceMinor)) / 100);
    const usd = (await b.client.get('/api/cart', { 'x-currency': 'USD' })).json().payload;
    expect(usd.currency).toBe('USD');
    expect(usd.items[0].price).toBe(Math.round(Number(image!.priceMinor) * 1.08) / 100);

    const removed = await b.client.delete(`/api/cart/items/${cart.items[0].id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().payload.items.map((i: { product_id: number }) => i.product_id)).toEqual([pack!.id]);
    expect((await b.client.delete(`/api/cart/items/${cart.items[0].id}`)).statusCode).toBe(404);
    // Another user's line is not found either.
    const other = await buyer();
    expect((await other.client.delete(`/api/cart/items/${cart.items[1].id}`)).statusCode).toBe(404);
  });

  it('refuses an unknown, hidden, own or mistyped product with a 422', async () => {
    const images = await seededProducts(t.app, 'image');
    const b = await buyer();
    const unknown = await b.client.post('/api/cart/items', { product_type: 'image', product_id: 987654 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe('This product does not exist.');
    const hidden = images[6]!;
    await t.app.db.update(products).set({ status: 'hidden' }).where(eq(products.id, hidden.id));
    const h = await b.client.post('/api/cart/items', { product_type: 'image', product_id: hidden.id });
    expect(h.statusCode).toBe(422);
    expect(h.json().message).toBe('This product is not available for sale.');
    await t.app.db.update(products).set({ status: 'published' }).where(eq(products.id, hidden.id));
    const mine = images[7]!;
    await t.app.db.update(products).set({ authorId: b.id }).where(eq(products.id, mine.id));
    const own = await b.client.post('/api/cart/items', { product_type: 'image', product_id: mine.id });
    expect(own.statusCode).toBe(422);
    expect(own.json().message).toBe('You cannot buy your own product.');
    expect((await b.client.post('/api/purchase/buy', { item_id: mine.id })).json().message).toBe('You cannot buy your own product.');
    await t.app.db.update(products).set({ authorId: mine.authorId }).where(eq(products.id, mine.id));
    const typed = await b.client.post('/api/cart/items', { product_type: 'prompt', product_id: images[0]!.id });
    expect(typed.statusCode).toBe(422);
    expect(typed.json().errors.product_type).toBeDefined();
    const bad = await b.client.post('/api/cart/items', { product_type: 'car', product_id: images[0]!.id });
    expect(bad.statusCode).toBe(422);
  });

  it('checkout summarises; a short purchase names the shortfall and charges nothing; a paid one empties the cart', async () => {
    const images = await seededProducts(t.app, 'image');
    const [pack] = await seededProducts(t.app, 'pack');
    const b = await buyer();
    expect((await b.client.post('/api/cart/checkout')).statusCode).toBe(422);
    const empty = await b.client.post('/api/cart/purchase');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toBe('Your cart is empty.');

    const a = images[8]!;
    await b.client.post('/api/cart/items', { product_type: 'image', product_id: a.id });
    await b.client.post('/api/cart/items', { product_type: 'pack', product_id: pack!.id });
    const total = Number(a.priceMinor) + Number(pack!.priceMinor);
    await fund(t.app, b.id, total - 250);

    const summary = (await b.client.post('/api/cart/checkout')).json().payload;
    expect(summary).toMatchObject({ total: total / 100, balance: (total - 250) / 100, shortfall: 2.5, can_pay: false, currency: 'EUR' });
    expect(summary.items).toHaveLength(2);

    const short = await b.client.post('/api/cart/purchase');
    expect(short.statusCode).toBe(422);
    expect(short.json().message).toBe('Your balance is too low: 2.50 € is missing. Please add funds to continue.');
    expect(await balanceMinor(t.app, b.id)).toBe(total - 250);
    expect((await b.client.get('/api/cart')).json().payload.items).toHaveLength(2);

    await fund(t.app, b.id, 250);
    expect((await b.client.post('/api/cart/checkout')).json().payload).toMatchObject({ shortfall: 0, can_pay: true });
    const paid = await b.client.post('/api/cart/purchase', undefined, { 'idempotency-key': 'cart-1' });
    expect(paid.statusCode).toBe(200);
    const order = paid.json().payload.order;
    expect(order).toMatchObject({ status: 'Success', product_type: 'cart', amount: total / 100 });
    expect(await balanceMinor(t.app, b.id)).toBe(0);
    expect((await b.client.get('/api/cart')).json().payload).toMatchObject({ items: [], total: 0 });
    const replay = await b.client.post('/api/cart/purchase', undefined, { 'idempotency-key': 'cart-1' });
    expect(replay.json()).toEqual(paid.json());
    expect((await b.client.get('/api/purchase/history')).json().payload).toHaveLength(1);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it('a cart holding a pack and one of its items buys both once; a pack whose item was bought before is still sold', async () => {
    const packs = await seededProducts(t.app, 'pack');
    const withContents = [];
    for (const p of packs) {
      const contents = await t.app.db.select().from(packItems).where(eq(packItems.packId, p.id));
      if (contents.length >= 1) withContents.push({ pack: p, contents });
    }
    expect(withContents.length).toBeGreaterThan(0);
    const { pack, contents } = withContents[0]!;
    const [item] = await t.app.db.select().from(products).where(eq(products.id, contents[0]!.productId));
    const total = Number(pack.priceMinor) + Number(item!.priceMinor);

    // Pack and its item in one cart: one order, the item owned once, the money moved once.
    const b = await buyer();
    await fund(t.app, b.id, total);
    expect((await b.client.post('/api/cart/items', { product_type: 'pack', product_id: pack.id })).statusCode).toBe(200);
    expect((await b.client.post('/api/cart/items', { product_type: item!.productType, product_id: item!.id })).statusCode).toBe(200);
    const paid = await b.client.post('/api/cart/purchase');
    expect(paid.statusCode).toBe(200);
    expect(paid.json().payload.order.amount).toBe(total / 100);
    expect(await balanceMinor(t.app, b.id)).toBe(0);
    expect((await b.client.get('/api/cart')).json().payload.items).toEqual([]);

    // The item alone first, then the pack that contains it.
    const c = await buyer();
    await fund(t.app, c.id, total);
    expect((await c.client.post('/api/purchase/buy', { item_id: item!.id })).statusCode).toBe(item!.productType === 'prompt' ? 422 : 200);
    if (item!.productType === 'prompt') expect((await c.client.post('/api/purchase/prompt', { prompt_id: item!.id })).statusCode).toBe(200);
    const packPaid = await c.client.post('/api/purchase/pack', { pack_id: pack.id });
    expect(packPaid.statusCode).toBe(200);
    expect(await balanceMinor(t.app, c.id)).toBe(0);
    const owned = await c.client.get(`/api/purchase/owned?product_id=${item!.id}`);
    expect(owned.json().payload.owned).toBe(true);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
