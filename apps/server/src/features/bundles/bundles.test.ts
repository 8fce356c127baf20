import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { lastMailTo, registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { balanceMinor, fund, listedPrompt, pendingMinor, revenueMinor } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { auditLog, notifications, orderItems, products } from '../../db/schema';
import { allowedMoves } from '../../lib/lifecycle';
import { checkLedger } from '../ledger';
import { bundleLifecycle } from './bundle-states';

/**
 * Creator bundles (issue 34): a creator proposes a bundle of their own listed works at least 10 % below
 * their sum; staff approve it (a pack whose seller is the creator) or reject it with a reason; a buyer
 * buys it and the creator earns their share of the bundle price less commission, the ledger exact.
 */
const t = useTestApp({ registration: true });

const exact = { unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 };
const errorOf = (res: { json(): { errors?: Record<string, string[]> } }, field: string) => res.json().errors?.[field]?.[0];
let serial = 0;
const work = (authorId: number, priceMinor: number, extra: Partial<typeof products.$inferInsert> = {}) =>
  listedPrompt(t.app, authorId, priceMinor, { title: `Bundle work ${++serial}`, promptText: `Prompt text ${serial}`, ...extra });

async function propose(client: TestClient, body: Record<string, unknown>) {
  return client.post('/api/seller/bundles', { title: 'Coastal set', description: 'Three coastal prompts.', ...body });
}

describe('the bundle lifecycle', () => {
  it('allows exactly these moves', () => {
    expect(allowedMoves(bundleLifecycle, ['creator', 'staff'])).toEqual([
      'new>pending:creator',
      'pending>approved:staff',
      'pending>rejected:staff',
      'pending>withdrawn:creator',
    ]);
  });
});

describe('a bundle from proposal to sale', () => {
  it('is proposed, approved by staff, bought; the creator earns their share less commission and the buyer gets every work', async () => {
    const creator = await registerSeller(t.app);
    const first = await work(creator.id, 1500);
    const second = await work(creator.id, 2500);

    // The works the creator may pick: their own listed ones, newest first (not a draft, not another's).
    await work(creator.id, 900, { status: 'draft' });
    const pickable = (await creator.client.get('/api/seller/bundles/works')).json().payload.works;
    expect(pickable).toEqual([
      { id: second, title: expect.any(String), price_minor: 2500 },
      { id: first, title: expect.any(String), price_minor: 1500 },
    ]);

    const proposed = await propose(creator.client, { product_ids: [first, second], price: 30 });
    expect(proposed.statusCode, proposed.body).toBe(200);
    const bundle = proposed.json().payload.bundle;
    expect(bundle).toMatchObject({ status: 'pending', price_minor: 3000, items_price_minor: 4000, pack_id: null, reason: null });
    expect(bundle.items.map((i: { id: number }) => i.id)).toEqual([first, second]);

    const mine = (await creator.client.get('/api/seller/bundles')).json().payload.bundles;
    expect(mine.map((b: { id: number; status: string }) => [b.id, b.status])).toEqual([[bundle.id, 'pending']]);

    const staff = await registerStaff(t.app);
    const queue = (await staff.client.get('/api/admin/bundles')).json().payload.bundles;
    expect(queue.map((b: { id: number }) => b.id)).toContain(bundle.id);
    const approved = await staff.client.post(`/api/admin/bundles/${bundle.id}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    const pack = approved.json().payload.bundle;
    expect(pack.status).toBe('approved');
    expect(pack.pack_id).toEqual(expect.any(Number));
    // Approved once only.
    expect((await staff.client.post(`/api/admin/bundles/${bundle.id}/approve`, {})).statusCode).toBe(409);

    // The creator is told (bell), and the approval is in the audit log.
    const bell = await t.app.db.select().from(notifications).where(eq(notifications.userId, creator.id));
    expect(bell.map((n) => n.text)).toContain('Your bundle "Coastal set" is approved and on sale.');
    const audit = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectType, 'bundle'));
    expect(audit.map((a) => [a.action, a.subjectId])).toContainEqual(['bundle.approve', bundle.id]);

    // The pack page: the creator's pack, its works, the saving.
    const guest = new TestClient(t.app);
    const page = (await guest.get(`/api/packs/${pack.pack_slug}/info?currency=EUR`)).json().payload;
    expect(page.product_type).toBe('pack');
    expect(page.authorNickname).toBe(pack.creator_nickname);
    expect(page.price).toBe(30);
    expect(page.items.map((i: { id: number }) => i.id)).toEqual([first, second]);
    expect(page.saving).toEqual({ items_price: 40, amount: 10, percent: 25 });

    // The creator cannot buy their own bundle.
    await fund(t.app, creator.id, 3000);
    expect((await creator.client.post('/api/purchase/pack', { pack_id: pack.pack_id })).statusCode).toBe(422);

    const buyer = await registerPerson(t.app);
    await fund(t.app, buyer.id, 3000);
    const revenueBefore = await revenueMinor(t.app);
    const pendingBefore = await pendingMinor(t.app, creator.id);
    const sold = await buyer.client.post('/api/purchase/pack', { pack_id: pack.pack_id });
    expect(sold.statusCode, sold.body).toBe(200);
    // Shares of 30.00 € in proportion to 15.00 and 25.00: 11.25 and 18.75; commission 20 %: 2.25 and 3.75.
    expect(await pendingMinor(t.app, creator.id)).toBe(pendingBefore + (1125 - 225) + (1875 - 375));
    expect((await revenueMinor(t.app)) - revenueBefore).toBe(225 + 375);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    const lines = await t.app.db.select().from(orderItems).where(eq(orderItems.orderId, sold.json().payload.order.id));
    // Every line is the creator's sale of the pack, its split stored at sale time.
    expect(lines.map((l) => [l.packId, l.sellerId, l.priceMinor, l.sellerMinor, l.commissionMinor])).toEqual([
      [pack.pack_id, creator.id, 1125, 900, 225],
      [pack.pack_id, creator.id, 1875, 1500, 375],
    ]);
    expect(await checkLedger(t.app.db)).toEqual(exact);

    // The buyer downloads each work, and all of them as one ZIP.
    const owned = (await buyer.client.get(`/api/purchase/owned?product_id=${pack.pack_id}`)).json().payload;
    expect(owned.owned).toBe(true);
    expect(owned.downloads.map((d: { product_id: number }) => d.product_id).sort()).toEqual([first, second].sort());
    for (const d of owned.downloads as { url: string; product_id: number }[]) {
      const file = await buyer.client.get(d.url);
      expect(file.statusCode).toBe(200);
      expect(file.body).toMatch(/^Prompt text \d+\n$/);
    }
    expect((await buyer.client.get(owned.download_all_url)).statusCode).toBe(200);
  });

  it('a rejection keeps the reason and tells the creator; a withdrawn bundle cannot be approved', async () => {
    const creator = await registerSeller(t.app);
    const ids = [await work(creator.id, 1000), await work(creator.id, 1000)];
    const staff = await registerStaff(t.app);

    const rejectMe = (await propose(creator.client, { title: 'Too thin', product_ids: ids, price: 18 })).json().payload.bundle;
    expect((await staff.client.post(`/api/admin/bundles/${rejectMe.id}/reject`, { reason: '' })).statusCode).toBe(422);
    const rejected = await staff.client.post(`/api/admin/bundles/${rejectMe.id}/reject`, { reason: 'Please add a description of each prompt.' });
    expect(rejected.statusCode).toBe(200);
    const mine = (await creator.client.get('/api/seller/bundles')).json().payload.bundles;
    expect(mine.find((b: { id: number }) => b.id === rejectMe.id)).toMatchObject({
      status: 'rejected',
      reason: 'Please add a description of each prompt.',
      pack_id: null,
    });
    const mail = await lastMailTo(t.app, creator.email);
    expect(mail?.text).toContain('Your bundle "Too thin" was rejected: Please add a description of each prompt.');

    const withdrawMe = (await propose(creator.client, { title: 'Changed my mind', product_ids: ids, price: 18 })).json().payload.bundle;
    const withdrawn = await creator.client.post(`/api/seller/bundles/${withdrawMe.id}/withdraw`, {});
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json().payload.bundle.status).toBe('withdrawn');
    const late = await staff.client.post(`/api/admin/bundles/${withdrawMe.id}/approve`, {});
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This bundle is withdrawn and cannot be approved now.');
    // A rejected bundle cannot be withdrawn either.
    expect((await creator.client.post(`/api/seller/bundles/${rejectMe.id}/withdraw`, {})).statusCode).toBe(409);
  });

  it('a work unlisted after the proposal: staff cannot approve it as it is (409 saying why)', async () => {
    const creator = await registerSeller(t.app);
    const ids = [await work(creator.id, 1000), await work(creator.id, 1000)];
    const b = (await propose(creator.client, { product_ids: ids, price: 18 })).json().payload.bundle;
    await t.app.db.update(products).set({ status: 'hidden' }).where(eq(products.id, ids[1]!));
    const staff = await registerStaff(t.app);
    const res = await staff.client.post(`/api/admin/bundles/${b.id}/approve`, {});
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(new RegExp(`these are not listed: ${ids[1]}`));
  });
});

describe('a bundle sells as one sale of its creator', () => {
  it('three works of 10.00 € in a 10.00 € bundle: the commission is taken once (2.00 €), the creator earns 8.00 € to the cent', async () => {
    const creator = await registerSeller(t.app);
    const ids = [await work(creator.id, 1000), await work(creator.id, 1000), await work(creator.id, 1000)];
    const b = (await propose(creator.client, { title: 'Three equal', product_ids: ids, price: 10 })).json().payload.bundle;
    const staff = await registerStaff(t.app);
    const pack = (await staff.client.post(`/api/admin/bundles/${b.id}/approve`, {})).json().payload.bundle;
    const buyer = await registerPerson(t.app);
    await fund(t.app, buyer.id, 1000);
    const revenueBefore = await revenueMinor(t.app);
    const pendingBefore = await pendingMinor(t.app, creator.id);
    const sold = await buyer.client.post('/api/purchase/pack', { pack_id: pack.pack_id });
    expect(sold.statusCode, sold.body).toBe(200);
    // Each line's own 20 % would be 67 + 67 + 67 = 2.01 €; one sale of 10.00 € pays 2.00 €.
    expect(await pendingMinor(t.app, creator.id)).toBe(pendingBefore + 800);
    expect((await revenueMinor(t.app)) - revenueBefore).toBe(200);
    const lines = await t.app.db.select().from(orderItems).where(eq(orderItems.orderId, sold.json().payload.order.id));
    expect(lines.map((l) => [l.priceMinor, l.sellerMinor, l.commissionMinor])).toEqual([
      [334, 267, 67],
      [333, 266, 67],
      [333, 267, 66],
    ]);
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });
});

describe("a bundle's works unlisted after approval", () => {
  it('the pack rules apply: the rest sells at the bundle price split over them, the saving shrinks; below 2 works the pack stops and leaves the shop', async () => {
    const creator = await registerSeller(t.app);
    const ids = [await work(creator.id, 1000), await work(creator.id, 1000), await work(creator.id, 2000)];
    const b = (await propose(creator.client, { title: 'Three moods', product_ids: ids, price: 30 })).json().payload.bundle;
    const staff = await registerStaff(t.app);
    const pack = (await staff.client.post(`/api/admin/bundles/${b.id}/approve`, {})).json().payload.bundle;
    const guest = new TestClient(t.app);
    // The pack page is cached with the catalogue and dropped by its change feed (on PostgreSQL a moment later).
    const info = () => guest.get(`/api/packs/${pack.pack_slug}/info?currency=EUR`);
    expect((await info()).json().payload.saving).toEqual({ items_price: 40, amount: 10, percent: 25 });

    // One work unlisted: the pack sells the two left; 30.00 € split 1:2 over them.
    await t.app.db.update(products).set({ status: 'hidden' }).where(eq(products.id, ids[0]!));
    await vi.waitFor(async () => {
      const page = (await info()).json().payload;
      expect(page.items.map((i: { id: number }) => i.id)).toEqual([ids[1], ids[2]]);
      expect(page.saving).toBeNull();
    });
    const buyer = await registerPerson(t.app);
    await fund(t.app, buyer.id, 3000);
    const pendingBefore = await pendingMinor(t.app, creator.id);
    const sold = await buyer.client.post('/api/purchase/pack', { pack_id: pack.pack_id });
    expect(sold.statusCode, sold.body).toBe(200);
    expect(sold.json().payload.order.items.map((i: { price: number }) => i.price)).toEqual([10, 20]);
    expect(await pendingMinor(t.app, creator.id)).toBe(pendingBefore + 800 + 1600);

    // A second one unlisted: the pack stops selling and is gone from the shop.
    await t.app.db.update(products).set({ status: 'hidden' }).where(eq(products.id, ids[1]!));
    const late = await registerPerson(t.app);
    await fund(t.app, late.id, 3000);
    const refused = await late.client.post('/api/purchase/pack', { pack_id: pack.pack_id });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused, 'pack_id')).toBe('This pack is no longer for sale: fewer than 2 of its works are still available.');
    await vi.waitFor(async () => expect((await info()).statusCode).toBe(404));
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });
});

describe('each 422 of a proposal', () => {
  it('names the field with a sentence a person can act on', async () => {
    const creator = await registerSeller(t.app);
    const other = await registerSeller(t.app);
    const a = await work(creator.id, 2000);
    const b = await work(creator.id, 2000);
    const theirs = await work(other.id, 2000);
    const draft = await work(creator.id, 2000, { status: 'draft' });
    const hidden = await work(creator.id, 2000, { status: 'hidden' });
    const bought = await work(creator.id, 2000, { platformOwned: true });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ product_ids: [a], price: 10 }, 'product_ids', 'A bundle holds at least 2 works: pick one more.'],
      [{ product_ids: Array.from({ length: 21 }, (_, i) => a + i), price: 10 }, 'product_ids', 'A bundle holds at most 20 works: leave some out.'],
      [{ product_ids: [a, b, a], price: 10 }, 'product_ids', 'Each work may be in the bundle once: remove the repeated one.'],
      [{ product_ids: [a, theirs], price: 10 }, 'product_ids', `Only your own works can go into your bundle; these are not yours: ${theirs}.`],
      [
        { product_ids: [a, draft, hidden], price: 10 },
        'product_ids',
        `Only works listed in the shop can go into a bundle; these are not listed: ${draft}, ${hidden}. List them again or leave them out.`,
      ],
      [
        { product_ids: [a, bought], price: 10 },
        'product_ids',
        `These works were bought by the platform and are no longer yours to sell; leave them out: ${bought}.`,
      ],
      [{ product_ids: [a, 999999999], price: 10 }, 'product_ids', 'These works do not exist: 999999999. Pick them again from your works.'],
      [
        { product_ids: [a, b], price: 36.01 },
        'price',
        'A bundle must cost at least 10 % less than its works bought one by one (40.00 €): set a price of at most 36.00 €.',
      ],
      [{ product_ids: [a, b], price: 0 }, 'price', 'The price must be above zero.'],
      [{ product_ids: [a, b], price: 12.345 }, 'price', 'The price may have at most 2 decimals.'],
      [{ product_ids: [a, b], price: 20, title: '' }, 'title', 'The title field is required.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await propose(creator.client, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(errorOf(res, field), JSON.stringify(body)).toBe(message);
    }
    // Exactly 10 % below is allowed.
    expect((await propose(creator.client, { product_ids: [a, b], price: 36 })).statusCode).toBe(200);
    // A pack cannot go into a bundle.
    const staff = await registerStaff(t.app);
    const packed = (await propose(creator.client, { product_ids: [a, b], price: 30 })).json().payload.bundle;
    const packId = (await staff.client.post(`/api/admin/bundles/${packed.id}/approve`, {})).json().payload.bundle.pack_id;
    const nested = await propose(creator.client, { product_ids: [a, packId], price: 10 });
    expect(errorOf(nested, 'product_ids')).toBe(`A bundle cannot hold a pack; leave these out: ${packId}.`);
  });
});

describe('who may touch a bundle', () => {
  it("a second creator cannot propose with another's works nor withdraw or see their proposal; a non-staff user cannot approve or list the queue; a guest gets 401", async () => {
    const creator = await registerSeller(t.app);
    const ids = [await work(creator.id, 1000), await work(creator.id, 1000)];
    const b = (await propose(creator.client, { product_ids: ids, price: 15 })).json().payload.bundle;

    const second = await registerSeller(t.app);
    const stolen = await propose(second.client, { product_ids: ids, price: 15 });
    expect(stolen.statusCode).toBe(422);
    expect(errorOf(stolen, 'product_ids')).toBe(`Only your own works can go into your bundle; these are not yours: ${ids.join(', ')}.`);
    const withdraw = await second.client.post(`/api/seller/bundles/${b.id}/withdraw`, {});
    expect(withdraw.statusCode).toBe(404);
    expect((await second.client.get('/api/seller/bundles')).json().payload.bundles).toEqual([]);

    expect((await second.client.post(`/api/admin/bundles/${b.id}/approve`, {})).statusCode).toBe(403);
    expect((await second.client.post(`/api/admin/bundles/${b.id}/reject`, { reason: 'No.' })).statusCode).toBe(403);
    expect((await creator.client.post(`/api/admin/bundles/${b.id}/approve`, {})).statusCode).toBe(403);
    expect((await second.client.get('/api/admin/bundles')).statusCode).toBe(403);
    const guest = new TestClient(t.app);
    expect((await guest.get('/api/seller/bundles')).statusCode).toBe(401);
    expect((await guest.post('/api/seller/bundles', { title: 'x', product_ids: ids, price: 1 })).statusCode).toBe(401);

    // Still pending, untouched.
    expect((await creator.client.get('/api/seller/bundles')).json().payload.bundles[0]).toMatchObject({ id: b.id, status: 'pending' });
  });
});
