import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerStaff, registerUser } from '../../../test/accounts';
import { balanceMinor, fund, pendingMinor, revenueMinor, userIdByEmail } from '../../../test/commerce';
import { useTestApp } from '../../../test/test-app';
import { products, userProducts } from '../../db/schema';
import { checkLedger } from '../ledger';

/**
 * Issue 30 finding 2: a pack reads its works through the one visible-product rule. A work unlisted,
 * hidden or whose author deleted the account is neither sold, delivered nor paid for in a pack; the
 * pack's price is split over the works that remain; below 2 the pack stops selling and leaves the shop,
 * and staff see the pack flagged in the back office.
 */
const t = useTestApp({ registration: true });

async function creator() {
  const person = await registerUser(t.app);
  return { ...person, id: await userIdByEmail(t.app, person.person.email) };
}

async function work(authorId: number, title: string, priceMinor: number) {
  const slug = `${title.toLowerCase().replace(/\W+/g, '-')}-${authorId}`;
  const [row] = await t.app.db.insert(products).values({ slug, title, productType: 'image', authorId, priceMinor }).returning({ id: products.id });
  return row!.id;
}

async function buyer(minor: number) {
  const b = await creator();
  await fund(t.app, b.id, minor);
  await b.client.csrf();
  return b;
}

type AdminRow = { id: number; pack_items_not_for_sale?: number[]; pack_sells?: boolean };

describe('issue 30 finding 2: packs sell only works still for sale', () => {
  it('a hidden work and a deleted author are not sold, delivered or paid for; the price is split over the rest; below 2 the pack stops', async () => {
    const admin = await registerStaff(t.app);
    const [a, b, c, d] = [await creator(), await creator(), await creator(), await creator()];
    const first = await work(a.id, 'Dune morning', 1000);
    const second = await work(b.id, 'Dune noon', 1000);
    const third = await work(c.id, 'Dune evening', 2000);
    const fourth = await work(d.id, 'Dune night', 2000);
    const created = await admin.client.post('/api/admin/packs', {
      title: 'Four dunes',
      price: 30,
      product_ids: [first, second, third, fourth],
      status: 'published',
    });
    expect(created.statusCode).toBe(200);
    const pack = created.json().payload;

    // Staff hide the third work; the fourth's author deletes the account.
    expect((await admin.client.request('PATCH', `/api/admin/products/${third}`, { body: { status: 'hidden' } })).statusCode).toBe(200);
    const gone = await d.client.request('DELETE', '/api/user/delete', { body: { password: d.person.password } });
    expect(gone.statusCode).toBe(200);

    // The back office flags the pack, naming the works it no longer sells.
    const flagged = await admin.client.get(`/api/admin/products?q=${encodeURIComponent('Four dunes')}`);
    const row = (flagged.json().payload as AdminRow[]).find((p) => p.id === pack.id)!;
    expect(row.pack_items_not_for_sale).toEqual([third, fourth]);
    expect(row.pack_sells).toBe(true);

    const revenueBefore = await revenueMinor(t.app);
    const one = await buyer(3000);
    const sold = await one.client.post('/api/purchase/pack', { pack_id: pack.id });
    expect(sold.statusCode).toBe(200);
    // 30.00 € split over the two works still for sale (10.00 € each): 15.00 € each, less 20 % commission.
    const order = sold.json().payload.order;
    expect(order.items.map((i: { info: { title: string }; price: number }) => [i.info.title, i.price])).toEqual([
      ['Dune morning', 15],
      ['Dune noon', 15],
    ]);
    expect(await pendingMinor(t.app, a.id)).toBe(1500 - 300);
    expect(await pendingMinor(t.app, b.id)).toBe(1500 - 300);
    expect(await pendingMinor(t.app, c.id)).toBe(0);
    expect(await pendingMinor(t.app, d.id)).toBe(0);
    expect((await revenueMinor(t.app)) - revenueBefore).toBe(600);
    expect(await balanceMinor(t.app, one.id)).toBe(0);
    // Delivered: the two works for sale and the pack, not the hidden work nor the deleted author's.
    const owned = await t.app.db.select({ id: userProducts.productId }).from(userProducts).where(eq(userProducts.userId, one.id));
    expect(owned.map((o) => o.id).sort((x, y) => x - y)).toEqual([pack.id, first, second].sort((x, y) => x - y));
    expect((await one.client.get(`/api/products/${third}/download`)).statusCode).not.toBe(200);

    // The shop still lists the pack with the two works it sells.
    const listed = await one.client.get('/api/packs?sort=id~desc');
    expect(listed.statusCode).toBe(200);
    const shown = (listed.json().payload as { id: number; items?: { id: number }[] }[]).find((p) => p.id === pack.id);
    expect(shown?.items?.map((i) => i.id)).toEqual([first, second]);
    const page = await one.client.get(`/api/packs/${pack.slug}/info`);
    expect(page.json().payload.items.map((i: { id: number }) => i.id)).toEqual([first, second]);

    // Hiding one more leaves 1: the pack stops selling with a sentence, and leaves the shop.
    expect((await admin.client.request('PATCH', `/api/admin/products/${second}`, { body: { status: 'hidden' } })).statusCode).toBe(200);
    const two = await buyer(3000);
    const refused = await two.client.post('/api/purchase/pack', { pack_id: pack.id });
    expect(refused.statusCode).toBe(422);
    expect(Object.values(refused.json().errors).flat()).toEqual(['This pack is no longer for sale: fewer than 2 of its works are still available.']);
    expect(await balanceMinor(t.app, two.id)).toBe(3000);
    const after = await two.client.get('/api/packs?sort=id~desc');
    expect(after.statusCode).toBe(200);
    expect((after.json().payload as { id: number }[]).some((p) => p.id === pack.id)).toBe(false);
    expect((await two.client.get(`/api/packs/${pack.slug}/info`)).statusCode).toBe(404);
    const stopped = (await admin.client.get(`/api/admin/products/${pack.id}`)).json().payload as AdminRow;
    expect(stopped.pack_items_not_for_sale).toEqual([second, third, fourth]);
    expect(stopped.pack_sells).toBe(false);

    const [still] = await t.app.db
      .select({ status: products.status })
      .from(products)
      .where(and(eq(products.id, pack.id)));
    expect(still!.status).toBe('published');
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
