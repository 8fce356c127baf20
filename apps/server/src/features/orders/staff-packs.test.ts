import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerStaff, registerUser } from '../../../test/accounts';
import { balanceMinor, fund, pendingMinor, revenueMinor, userIdByEmail } from '../../../test/commerce';
import { useTestApp } from '../../../test/test-app';
import { notifications, products, users } from '../../db/schema';
import { checkLedger } from '../ledger';
import { allocate } from './checkout';

/**
 * Hole 3: a pack built by staff pays each item's author their share of the pack's price (in proportion
 * to the items' prices, the remainder cents by largest remainder), less the commission; a
 * platform-owned item's share goes to revenue. On PostgreSQL the sales race all at once; PGlite runs
 * one statement at a time, so it gets them a few at a time. Both must be exact to the cent.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const BUYERS = onPostgres ? 24 : 6;

const t = useTestApp({ registration: true });

async function creator() {
  const person = await registerUser(t.app);
  return { ...person, id: await userIdByEmail(t.app, person.person.email) };
}

async function work(authorId: number, title: string, priceMinor: number, extra: Partial<typeof products.$inferInsert> = {}) {
  const slug = `${title.toLowerCase().replace(/\W+/g, '-')}-${authorId}-${priceMinor}`;
  const [row] = await t.app.db
    .insert(products)
    .values({ slug, title, productType: 'image', authorId, priceMinor, ...extra })
    .returning({ id: products.id });
  return row!.id;
}

async function buyer(minor: number) {
  const b = await creator();
  await fund(t.app, b.id, minor);
  await b.client.csrf();
  return b;
}

describe('hole 3: staff-built packs', () => {
  it('hole 3: the remainder cents go by largest remainder, ties to the earlier item, and always add up', () => {
    expect(allocate(5000, [2400, 1900])).toEqual([2791, 2209]);
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(200, [1, 1, 1])).toEqual([67, 67, 66]);
    for (let total = 0; total < 500; total += 7) {
      const weights = [3, 7, 11, 13];
      expect(allocate(total, weights).reduce((s, v) => s + v, 0)).toBe(total);
    }
  });

  it('hole 3: a staff pack of a 24.00 € and a 19.00 € work sold for 50.00 € pays both authors their share less commission', async () => {
    const admin = await registerStaff(t.app);
    const a = await creator();
    const b = await creator();
    const first = await work(a.id, 'Harbour dawn', 2400);
    const second = await work(b.id, 'Quiet birches', 1900);
    const created = await admin.client.post('/api/admin/packs', { title: 'Two friends', price: 50, product_ids: [first, second], status: 'published' });
    expect(created.statusCode).toBe(200);
    const pack = created.json().payload;

    const revenueBefore = await revenueMinor(t.app);
    const buyerOne = await buyer(5000);
    const sold = await buyerOne.client.post('/api/purchase/pack', { pack_id: pack.id });
    expect(sold.statusCode).toBe(200);
    // Shares 2791 and 2209 (largest remainder); commission 20 %: 558 and 442.
    expect(await pendingMinor(t.app, a.id)).toBe(2791 - 558);
    expect(await pendingMinor(t.app, b.id)).toBe(2209 - 442);
    expect((await revenueMinor(t.app)) - revenueBefore).toBe(558 + 442);
    expect(await balanceMinor(t.app, buyerOne.id)).toBe(0);
    const order = sold.json().payload.order;
    expect(order.items.map((i: { price: number }) => i.price)).toEqual([27.91, 22.09]);
    const nicknames = await t.app.db
      .select({ id: users.id, nickname: users.nickname })
      .from(users)
      .where(inArray(users.id, [a.id, b.id]));
    const nick = (id: number) => nicknames.find((n) => n.id === id)!.nickname;
    expect(order.items.map((i: { seller: { nickname: string } }) => i.seller.nickname)).toEqual([nick(a.id), nick(b.id)]);
    // Each author hears of the sale.
    for (const author of [a, b]) {
      const bell = await t.app.db.select().from(notifications).where(eq(notifications.userId, author.id));
      // The text names the work and what the author earned (the bell words it from its params).
      expect(bell.map((n) => n.text)).toEqual([expect.stringMatching(/^You sold "Two friends" \(\d+\.\d\d €\)\.$/)]);
    }
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it("hole 3: a platform-owned item's share goes to revenue, in full", async () => {
    const admin = await registerStaff(t.app);
    const a = await creator();
    const owned = await creator();
    const first = await work(a.id, 'Salt marsh', 1000);
    const bought = await work(owned.id, 'Bought out', 1000, { platformOwned: true });
    const pack = (await admin.client.post('/api/admin/packs', { title: 'Half ours', price: 15, product_ids: [first, bought], status: 'published' })).json()
      .payload;
    const revenueBefore = await revenueMinor(t.app);
    const b = await buyer(1500);
    expect((await b.client.post('/api/purchase/pack', { pack_id: pack.id })).statusCode).toBe(200);
    expect(await pendingMinor(t.app, a.id)).toBe(750 - 150);
    expect(await pendingMinor(t.app, owned.id)).toBe(0);
    expect((await revenueMinor(t.app)) - revenueBefore).toBe(150 + 750);
  });

  it('hole 3: only published works of present authors go into a pack (422 naming product_ids)', async () => {
    const admin = await registerStaff(t.app);
    const a = await creator();
    const live = await work(a.id, 'Open field', 500);
    const draft = await work(a.id, 'Unfinished', 500, { status: 'draft' });
    const hidden = await work(a.id, 'Taken down', 500, { status: 'hidden' });
    for (const id of [draft, hidden]) {
      const res = await admin.client.post('/api/admin/packs', { title: 'Mixed', price: 8, product_ids: [live, id], status: 'published' });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.product_ids[0]).toBe(`Only published works can go into a pack; these are not for sale: ${id}.`);
    }
    const other = await work(a.id, 'Open sky', 500);
    const pack = (await admin.client.post('/api/admin/packs', { title: 'Only live', price: 5, product_ids: [live, other] })).json().payload;
    const edit = await admin.client.request('PUT', `/api/admin/packs/${pack.id}/items`, { body: { product_ids: [live, other, hidden] } });
    expect(edit.statusCode).toBe(422);
    expect(edit.json().errors.product_ids[0]).toMatch(/^Only published works can go into a pack/);
  });

  it(`hole 3: ${BUYERS} buyers buy one staff pack at once: every author's share to the cent`, async () => {
    const admin = await registerStaff(t.app);
    const authors = [await creator(), await creator(), await creator()];
    const prices = [1333, 2000, 999];
    const items = [
      await work(authors[0]!.id, 'Race one', prices[0]!),
      await work(authors[1]!.id, 'Race two', prices[1]!),
      await work(authors[2]!.id, 'Race three', prices[2]!),
    ];
    const pack = (await admin.client.post('/api/admin/packs', { title: 'Race pack', price: 33.33, product_ids: items, status: 'published' })).json().payload;
    const shares = allocate(3333, prices);
    const commissions = shares.map((s) => Math.round(s * 0.2));
    const buyers = [];
    for (let i = 0; i < BUYERS; i++) buyers.push(await buyer(3333));
    const revenueBefore = await revenueMinor(t.app);
    const results = await Promise.all(buyers.map((b) => b.client.post('/api/purchase/pack', { pack_id: pack.id })));
    expect(results.map((r) => r.statusCode)).toEqual(buyers.map(() => 200));
    for (const [i, author] of authors.entries()) expect(await pendingMinor(t.app, author.id)).toBe(BUYERS * (shares[i]! - commissions[i]!));
    expect((await revenueMinor(t.app)) - revenueBefore).toBe(BUYERS * commissions.reduce((s, c) => s + c, 0));
    for (const b of buyers) expect(await balanceMinor(t.app, b.id)).toBe(0);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
