import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { lastMailTo, registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { balanceMinor, fund, listedPrompt, pendingMinor, revenueMinor } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { auditLog, discounts, type products } from '../../db/schema';
import { checkLedger } from '../ledger';

/**
 * Discount codes and sales (issue 34): each rule of a code and each 422; the price a code or a sale
 * gives on every purchase route, with commission and the creator's share on the discounted price;
 * the order, statement and receipt keep list price, code and discount; refunds leave the ledger exact;
 * a second creator neither sees nor changes the first one's codes.
 */
const t = useTestApp({ registration: true });

const exact = { unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 };
let serial = 0;

/** A published prompt by `authorId` (its download is its text, so no file is needed). */
const work = (authorId: number, priceMinor: number, extra: Partial<typeof products.$inferInsert> = {}) =>
  listedPrompt(t.app, authorId, priceMinor, { title: `Discount work ${Date.now()}`, ...extra });

const hour = 3_600_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const errorOf = (res: { json(): { errors?: Record<string, string[]> } }, field: string) => res.json().errors?.[field]?.[0];
/** A code unique to this run (codes are unique per creator; these tests share one database). */
const code = (stem: string) => `${stem}-${++serial}`.toUpperCase();

async function makeCode(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post('/api/seller/discounts', { kind: 'percent', value: 20, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().payload.discount as { id: number; code: string; uses: number; state: string };
}

async function buyer(minor: number) {
  const b = await registerPerson(t.app);
  await fund(t.app, b.id, minor);
  return b;
}

describe('a creator manages their codes', () => {
  it('creates, lists with uses, pauses, resumes, changes dates and deletes; each rule of the input is a 422 with a sentence', async () => {
    const creator = await registerSeller(t.app);
    const cheap = await work(creator.id, 500);
    await work(creator.id, 2000);
    const c = code('spring');

    const made = await makeCode(creator.client, { code: c.toLowerCase(), kind: 'percent', value: 20, max_uses: 5 });
    expect(made).toMatchObject({ code: c, uses: 0, state: 'active' });

    // Unique per creator, whatever the case.
    const twice = await creator.client.post('/api/seller/discounts', { code: c.toLowerCase(), kind: 'fixed', value: 100 });
    expect(twice.statusCode).toBe(422);
    expect(errorOf(twice, 'code')).toBe(`You already have a code ${c}. Codes are unique, whatever their case.`);

    const refused: [Record<string, unknown>, string, string][] = [
      [{ code: 'AB', kind: 'percent', value: 10 }, 'code', 'A code has 4 to 32 letters A–Z, digits 0–9 or dashes.'],
      [{ code: 'WITH SPACE', kind: 'percent', value: 10 }, 'code', 'A code has 4 to 32 letters A–Z, digits 0–9 or dashes.'],
      [{ code: 'X'.repeat(33), kind: 'percent', value: 10 }, 'code', 'A code has 4 to 32 letters A–Z, digits 0–9 or dashes.'],
      [{ code: code('pct'), kind: 'percent', value: 91 }, 'value', 'A percent discount is 1 to 90 %.'],
      [{ code: code('pct'), kind: 'percent', value: 0 }, 'value', 'The value must be at least 1.'],
      [{ code: code('pct'), kind: 'half', value: 10 }, 'kind', 'The kind must be percent or fixed.'],
      // The message names the cheapest work (checked by pattern below).
      [{ code: code('fix'), kind: 'fixed', value: 500 }, 'value', ''],
      [{ code: code('dates'), kind: 'percent', value: 10, starts_at: iso(2 * hour), ends_at: iso(hour) }, 'ends_at', 'The end must be after the start.'],
      [{ code: code('dates'), kind: 'percent', value: 10, ends_at: 'tomorrow' }, 'ends_at', 'The end must be a date and time such as 2026-12-24T18:00:00Z.'],
      [{ code: code('uses'), kind: 'percent', value: 10, max_uses: 0 }, 'max_uses', 'A code may be used at least once.'],
    ];
    for (const [body, field, message] of refused) {
      const res = await creator.client.post('/api/seller/discounts', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      if (field === 'value' && body.kind === 'fixed')
        expect(errorOf(res, field)).toMatch(/^A fixed discount must be below the price of each work it covers: "Discount work \d+" costs 5\.00 €\.$/);
      else expect(errorOf(res, field)).toBe(message);
    }
    // A fixed amount below the price of each named work is fine.
    await makeCode(creator.client, { code: code('fix'), kind: 'fixed', value: 499, product_ids: [cheap] });

    // Someone else's work, and a platform-owned one, are not the creator's.
    const other = await registerSeller(t.app);
    const theirs = await work(other.id, 1000);
    const notMine = await creator.client.post('/api/seller/discounts', { code: code('theirs'), kind: 'percent', value: 10, product_ids: [theirs] });
    expect(notMine.statusCode).toBe(422);
    expect(errorOf(notMine, 'product_ids')).toBe(`Work ${theirs} is not one of your works.`);

    const listed = (await creator.client.get('/api/seller/discounts')).json().payload.discounts as { id: number; code: string }[];
    expect(listed.map((d) => d.code)).toContain(c);

    const paused = await creator.client.patch(`/api/seller/discounts/${made.id}`, { paused: true });
    expect(paused.json().payload.discount).toMatchObject({ paused: true, state: 'paused' });
    const resumed = await creator.client.patch(`/api/seller/discounts/${made.id}`, { paused: false, ends_at: iso(24 * hour) });
    expect(resumed.json().payload.discount).toMatchObject({ paused: false, state: 'active', ends_at: expect.any(String) });
    const badDates = await creator.client.patch(`/api/seller/discounts/${made.id}`, { starts_at: iso(48 * hour) });
    expect(badDates.statusCode).toBe(422);
    expect(errorOf(badDates, 'ends_at')).toBe('The end must be after the start.');
    expect((await creator.client.patch(`/api/seller/discounts/${made.id}`, {})).statusCode).toBe(422);

    // A second creator neither sees nor changes nor deletes the first one's codes; a guest is asked to sign in.
    const theirList = (await other.client.get('/api/seller/discounts')).json().payload.discounts as { id: number }[];
    expect(theirList.some((d) => d.id === made.id)).toBe(false);
    expect((await other.client.patch(`/api/seller/discounts/${made.id}`, { paused: true })).statusCode).toBe(404);
    expect((await other.client.delete(`/api/seller/discounts/${made.id}`)).statusCode).toBe(404);
    expect((await new TestClient(t.app).get('/api/seller/discounts')).statusCode).toBe(401);
    const [still] = await t.app.db.select().from(discounts).where(eq(discounts.id, made.id));
    expect(still?.paused).toBe(false);

    expect((await creator.client.delete(`/api/seller/discounts/${made.id}`)).statusCode).toBe(200);
    expect((await creator.client.delete(`/api/seller/discounts/${made.id}`)).statusCode).toBe(404);
  });
});

describe('a buyer uses a code', () => {
  it('a 20 % code on a prompt: commission and share on the discounted price; order, history, statement and receipt show list price, code and discount; a refund is exact', async () => {
    const creator = await registerSeller(t.app);
    const id = await work(creator.id, 1000);
    const c = code('twenty');
    await makeCode(creator.client, { code: c, value: 20 });

    const preview = await new TestClient(t.app).get(`/api/products/${id}/price?discount_code=${c.toLowerCase()}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().payload).toMatchObject({ list_price_minor: 1000, price_minor: 800, discount: { code: c, automatic: false, amount_minor: 200 } });

    const b = await buyer(1000);
    const revenueBefore = await revenueMinor(t.app);
    const res = await b.client.post('/api/purchase/prompt', { prompt_id: id, discount_code: c.toLowerCase() });
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json().payload.order;
    expect(order.amount).toBe(8);
    expect(order.discounts).toEqual([{ product_id: id, code: c, automatic: false, list_price: 10, discount: 2 }]);
    expect(await balanceMinor(t.app, b.id)).toBe(200);
    // 20 % commission of 8.00 €: 1.60 € to the platform, 6.40 € to the creator.
    expect(await pendingMinor(t.app, creator.id)).toBe(640);
    expect((await revenueMinor(t.app)) - revenueBefore).toBe(160);

    const history = (await b.client.get('/api/purchase/history')).json().payload as { id: number; discounts?: unknown }[];
    expect(history.find((o) => o.id === order.id)?.discounts).toEqual(order.discounts);
    const lines = (await b.client.get('/api/balance/statement')).json().payload as { description: string }[];
    expect(lines.some((l) => l.description.includes(`code ${c} −2.00 € off 10.00 €`))).toBe(true);
    const listedUses = (await creator.client.get('/api/seller/discounts')).json().payload.discounts.find((d: { code: string }) => d.code === c);
    expect(listedUses.uses).toBe(1);

    // The receipt names the list price, the code and the discount.
    await expect
      .poll(
        async () => {
          await t.app.jobs.runDue();
          return (await lastMailTo(t.app, b.email))?.subject;
        },
        { timeout: 3000, interval: 50 },
      )
      .toBe(`Your Atelier order #${order.id}`);
    expect((await lastMailTo(t.app, b.email))?.text).toMatch(new RegExp(`Discount work \\d+: list price 10\\.00 €, code ${c} −2\\.00 €`));

    // Refunded: the buyer gets what they paid, the split comes back as stored; the ledger is exact.
    const asked = await b.client.post(`/api/orders/${order.id}/refund-request`, { reason: 'broken_file', message: 'The file does not open.' });
    expect(asked.statusCode, asked.body).toBe(200);
    const accepted = await creator.client.post(`/api/refund-requests/${asked.json().payload.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await balanceMinor(t.app, b.id)).toBe(1000);
    expect(await pendingMinor(t.app, creator.id)).toBe(0);
    expect(await revenueMinor(t.app)).toBe(revenueBefore);
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });

  it('each code that cannot be used is a 422 on discount_code that says why, and nothing is charged', async () => {
    const creator = await registerSeller(t.app);
    const other = await registerSeller(t.app);
    const id = await work(creator.id, 1000);
    const narrow = await work(creator.id, 1000);
    const theirs = await work(other.id, 1000);
    const expired = code('old');
    const future = code('soon');
    const paused = code('paused');
    const usedUp = code('once');
    const otherCreators = code('other');
    const onlyNarrow = code('narrow');
    const d = await makeCode(creator.client, { code: paused });
    await creator.client.patch(`/api/seller/discounts/${d.id}`, { paused: true });
    await makeCode(creator.client, { code: future, starts_at: iso(24 * hour) });
    await makeCode(creator.client, { code: onlyNarrow, product_ids: [narrow] });
    await makeCode(creator.client, { code: usedUp, max_uses: 1 });
    await makeCode(other.client, { code: otherCreators, product_ids: [theirs] });
    const old = await makeCode(creator.client, { code: expired });
    await t.app.db
      .update(discounts)
      .set({ startsAt: new Date(Date.now() - 48 * hour), endsAt: new Date(Date.now() - 24 * hour) })
      .where(eq(discounts.id, old.id));
    const first = await buyer(1000);
    expect((await first.client.post('/api/purchase/prompt', { prompt_id: id, discount_code: usedUp })).statusCode).toBe(200);

    const day = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 10);
    const b = await buyer(1000);
    const cases: [string, string][] = [
      ['NOSUCHCODE', 'The discount code NOSUCHCODE does not exist.'],
      [expired, `The discount code ${expired} expired on ${day(-24 * hour)}.`],
      [future, `The discount code ${future} is not valid yet: it starts on ${day(24 * hour)}.`],
      [paused, `The discount code ${paused} is paused by its creator.`],
      [usedUp, `The discount code ${usedUp} has been used up.`],
      [otherCreators, `The discount code ${otherCreators} is for another creator's works, not for what you are buying.`],
      [onlyNarrow, `The discount code ${onlyNarrow} does not cover what you are buying.`],
    ];
    for (const [given, message] of cases) {
      const res = await b.client.post('/api/purchase/prompt', { prompt_id: id, discount_code: given });
      expect(res.statusCode, given).toBe(422);
      expect(errorOf(res, 'discount_code')).toBe(message);
      const preview = await b.client.get(`/api/products/${id}/price?discount_code=${given}`);
      expect(preview.statusCode).toBe(422);
      expect(errorOf(preview, 'discount_code')).toBe(message);
    }
    expect(await balanceMinor(t.app, b.id)).toBe(1000);
    // The same buyer, no code: the list price.
    const plain = await b.client.post('/api/purchase/prompt', { prompt_id: id });
    expect(plain.json().payload.order.amount).toBe(10);
  });

  it('the cart: the checkout previews the code, and it applies to each line it covers, and only to those', async () => {
    const creator = await registerSeller(t.app);
    const other = await registerSeller(t.app);
    const a = await work(creator.id, 1000);
    const b2 = await work(creator.id, 3000);
    const theirs = await work(other.id, 2000);
    const c = code('cart');
    await makeCode(creator.client, { code: c, kind: 'fixed', value: 300 });
    const b = await buyer(6000);
    for (const product_id of [a, b2, theirs]) {
      expect((await b.client.post('/api/cart/items', { product_id, product_type: 'prompt' })).statusCode).toBe(200);
    }
    // The checkout summary previews it: each covered line at its new price, beside its list price.
    const summary = await b.client.post('/api/cart/checkout', { discount_code: c.toLowerCase() });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json().payload.total).toBe(54);
    expect(summary.json().payload.items.map((i: { price: number; list_price?: number }) => [i.price, i.list_price])).toEqual([
      [7, 10],
      [27, 30],
      [20, undefined],
    ]);
    const wrong = await b.client.post('/api/cart/checkout', { discount_code: 'NOPE-NOPE' });
    expect(wrong.statusCode).toBe(422);
    expect(errorOf(wrong, 'discount_code')).toBe('The discount code NOPE-NOPE does not exist.');
    expect((await b.client.post('/api/cart/checkout')).json().payload.total).toBe(60);
    const res = await b.client.post('/api/cart/purchase', { discount_code: c });
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json().payload.order;
    expect(order.amount).toBe(54);
    expect(order.discounts).toHaveLength(2);
    expect(order.discounts.map((d: { product_id: number }) => d.product_id).sort()).toEqual([a, b2].sort());
    expect(await pendingMinor(t.app, other.id)).toBe(1600);
    expect(await pendingMinor(t.app, creator.id)).toBe(Math.round((700 + 2700) * 0.8));
    // A cart purchase with no body still works (no code).
    const again = await work(other.id, 500);
    await b.client.post('/api/cart/items', { product_id: again, product_type: 'prompt' });
    const noBody = await b.client.post('/api/cart/purchase');
    expect(noBody.statusCode, noBody.body).toBe(200);
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });

  it('an Idempotency-Key replay counts the use once', async () => {
    const creator = await registerSeller(t.app);
    const id = await work(creator.id, 1000);
    const c = code('replay');
    await makeCode(creator.client, { code: c, max_uses: 2 });
    const b = await buyer(2000);
    const headers = { 'idempotency-key': `discount-replay-${serial}` };
    const first = await b.client.post('/api/purchase/prompt', { prompt_id: id, discount_code: c }, headers);
    const second = await b.client.post('/api/purchase/prompt', { prompt_id: id, discount_code: c }, headers);
    expect(first.statusCode).toBe(200);
    expect(second.json().payload.order.id).toBe(first.json().payload.order.id);
    const [row] = await t.app.db.select().from(discounts).where(eq(discounts.code, c));
    expect(row?.uses).toBe(1);
    expect(await balanceMinor(t.app, b.id)).toBe(1200);
  });
});

describe('sales', () => {
  it('an automatic sale applies without a code during its window, shows struck on the product, never below 0.50 €; the better price wins over a code', async () => {
    const creator = await registerSeller(t.app);
    const id = await work(creator.id, 1000);
    const tiny = await work(creator.id, 60);
    const sale = await makeCode(creator.client, { code: code('sale'), value: 50, automatic: true, ends_at: iso(24 * hour) });
    const c = code('ten');
    await makeCode(creator.client, { code: c, value: 10 });

    const info = (await new TestClient(t.app).get(`/api/products/${id}/info`)).json().payload;
    const product = info.product ?? info;
    expect(product.price).toBe(10);
    expect(product.sale).toMatchObject({ price: 5, ends_at: expect.any(String) });
    const small = (await new TestClient(t.app).get(`/api/products/${tiny}/price`)).json().payload;
    expect(small).toMatchObject({ list_price_minor: 60, price_minor: 50 });

    const b = await buyer(2000);
    // The code gives 10 %, the sale 50 %: the sale's price.
    const bought = await b.client.post('/api/purchase/prompt', { prompt_id: id, discount_code: c });
    expect(bought.json().payload.order).toMatchObject({ amount: 5, discounts: [{ product_id: id, automatic: true, list_price: 10, discount: 5 }] });
    const floor = await b.client.post('/api/purchase/prompt', { prompt_id: tiny });
    expect(floor.json().payload.order.amount).toBe(0.5);

    // Paused: no longer on the product, nor at checkout.
    await creator.client.patch(`/api/seller/discounts/${sale.id}`, { paused: true });
    const later = await work(creator.id, 1000);
    expect((await new TestClient(t.app).get(`/api/products/${later}/price`)).json().payload).toMatchObject({ price_minor: 1000, discount: null });
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });

  it('staff make platform codes for platform-owned works in the back office (audited); a creator cannot', async () => {
    const staff = await registerStaff(t.app);
    const creator = await registerSeller(t.app);
    const platformWork = await work(staff.id, 1000, { platformOwned: true });
    const creatorWork = await work(creator.id, 1000);
    const c = code('house');
    const made = await staff.client.post('/api/admin/discounts', { code: c, kind: 'percent', value: 30, product_ids: [] });
    expect(made.statusCode, made.body).toBe(200);
    const notPlatform = await staff.client.post('/api/admin/discounts', { code: code('house'), kind: 'percent', value: 30, product_ids: [creatorWork] });
    expect(errorOf(notPlatform, 'product_ids')).toBe(`Work ${creatorWork} is not a platform-owned work.`);
    expect((await creator.client.post('/api/admin/discounts', { code: code('x'), kind: 'percent', value: 30 })).statusCode).toBe(403);
    const audit = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectType, 'discount'));
    expect(audit.some((a) => a.action === 'discount.create' && a.subjectId === made.json().payload.discount.id)).toBe(true);

    const b = await buyer(2000);
    const res = await b.client.post('/api/purchase/prompt', { prompt_id: platformWork, discount_code: c });
    expect(res.json().payload.order.amount).toBe(7);
    const refused = await b.client.post('/api/purchase/prompt', { prompt_id: creatorWork, discount_code: c });
    expect(errorOf(refused, 'discount_code')).toBe(`The discount code ${c} is for another creator's works, not for what you are buying.`);
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });
});
