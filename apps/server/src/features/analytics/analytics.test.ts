import { ANALYTICS_CSV_COLUMNS } from '@atelier/shared';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { fund, pendingMinor, revenueMinor, seededProducts } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { orders, products } from '../../db/schema';
import { commissionOf } from '../ledger';
import { PURGE_VIEW_VISITORS } from './analytics.routes';
import { isBot } from './views';

const t = useTestApp({ seed: true });
afterEach(() => {
  vi.useRealTimers();
});

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' };
const GOOGLEBOT = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
const SCRIPT = { 'user-agent': 'curl/8.5.0' };

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Parses the export: a header line, then one object per row. */
function parseCsv(text: string): Record<string, string>[] {
  const [head, ...rows] = text.trim().split('\r\n');
  const columns = head!.split(',');
  return rows.map((line) => {
    const cells = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"'));
    return Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? '']));
  });
}

describe('bots', () => {
  it('knows crawlers, previews, scripts and automated browsers, and a request without a user agent', () => {
    expect(isBot(GOOGLEBOT['user-agent'])).toBe(true);
    expect(isBot(SCRIPT['user-agent'])).toBe(true);
    expect(isBot('facebookexternalhit/1.1')).toBe(true);
    expect(isBot('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0 Safari/537.36')).toBe(true);
    expect(isBot(undefined)).toBe(true);
    expect(isBot(BROWSER['user-agent'])).toBe(false);
    expect(
      isBot('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'),
    ).toBe(false);
  });
});

describe('seller analytics', () => {
  it('counts the scripted views of 3 visitors and 2 bots over 2 days, and 4 sales; the CSV agrees; others see only their own', async () => {
    const creator = await registerPerson(t.app);
    const [a, b] = (await seededProducts(t.app, 'doc')).slice(-2) as [typeof products.$inferSelect, typeof products.$inferSelect];
    await t.app.db.update(products).set({ authorId: creator.id, priceMinor: 1000 }).where(eq(products.id, a.id));
    await t.app.db.update(products).set({ authorId: creator.id, priceMinor: 555 }).where(eq(products.id, b.id));
    const view = (c: TestClient, p: { slug: string }, headers: Record<string, string> = BROWSER) => c.get(`/api/products/${p.slug}/info`, headers);

    const guest = new TestClient(t.app); // known by address
    const second = await registerPerson(t.app); // known by session
    const third = await registerPerson(t.app);
    const googlebot = new TestClient(t.app);
    const script = new TestClient(t.app);

    const yesterdayDate = day(-1);
    // Yesterday: A by all three visitors (the guest twice), B by the second; both bots; the author themself.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 86_400_000 });
    for (const [c, p, h] of [
      [guest, a],
      [guest, a],
      [second.client, a],
      [second.client, b],
      [third.client, a],
      [googlebot, a, GOOGLEBOT],
      [script, b, SCRIPT],
      [creator.client, a],
    ] as [TestClient, typeof a, Record<string, string> | undefined][]) {
      expect((await view(c, p, h)).statusCode).toBe(200);
    }
    // Written by this process's next batch (the report writes what is pending first).
    expect((await creator.client.get(`/api/seller/analytics?from=${yesterdayDate}&to=${yesterdayDate}`)).json().payload.totals.views).toBe(4);
    vi.useRealTimers();

    // Today: the guest sees A and B, the second B twice, a bot A again.
    for (const [c, p, h] of [
      [guest, a],
      [guest, b],
      [second.client, b],
      [second.client, b],
      [googlebot, a, GOOGLEBOT],
    ] as [TestClient, typeof a, Record<string, string> | undefined][]) {
      expect((await view(c, p, h)).statusCode).toBe(200);
    }

    // Four sales: the second and third buy A, the third and a fourth buyer B; A's two count yesterday.
    const fourth = await registerPerson(t.app);
    const revenueBefore = await revenueMinor(t.app);
    for (const [buyer, p] of [
      [second, a],
      [third, a],
      [third, b],
      [fourth, b],
    ] as const) {
      await fund(t.app, buyer.id, p.id === a.id ? 1000 : 555);
      expect((await buyer.client.post('/api/purchase/buy', { item_id: p.id })).statusCode).toBe(200);
    }
    const earnedA = 1000 - commissionOf(1000, 20);
    const earnedB = 555 - commissionOf(555, 20);
    expect(await pendingMinor(t.app, creator.id)).toBe(2 * earnedA + 2 * earnedB);
    await t.app.db.execute(sql`update orders set created_at = created_at - interval '1 day'
      where id in (select order_id from order_items where product_id = ${a.id})`);

    const res = await creator.client.get('/api/seller/analytics');
    expect(res.statusCode).toBe(200);
    const report = res.json().payload;
    expect(report.from).toBe(day(-29));
    expect(report.to).toBe(day(0));
    expect(report.days).toHaveLength(30);
    expect(report.currency.code).toBe('EUR');
    const [yesterday, today] = report.days.slice(-2);
    expect(yesterday).toEqual({ date: day(-1), views: 4, sales: 2, revenue: (2 * earnedA) / 100 });
    // Today: the 3 page views, and the 4 buyers, each a view of what they bought (issue 31 item 2): the
    // second and third had seen A only yesterday, the third and fourth had not opened B's page today.
    expect(today).toEqual({ date: day(0), views: 7, sales: 2, revenue: (2 * earnedB) / 100 });
    expect(report.days.slice(0, -2).every((d: { views: number; sales: number }) => d.views === 0 && d.sales === 0)).toBe(true);
    expect(report.totals).toEqual({ views: 11, sales: 4, revenue: (2 * earnedA + 2 * earnedB) / 100, conversion: Math.round((4 / 11) * 10_000) / 10_000 });
    expect(report.products.slice(0, 2)).toEqual([
      { id: a.id, title: a.title, views: 6, sales: 2, revenue: (2 * earnedA) / 100 },
      { id: b.id, title: b.title, views: 5, sales: 2, revenue: (2 * earnedB) / 100 },
    ]);

    // The CSV says the same.
    const csv = await creator.client.get('/api/seller/analytics.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain(`sales-${day(-29)}-${day(0)}.csv`);
    expect(csv.body.split('\r\n')[0]).toBe(ANALYTICS_CSV_COLUMNS.join(','));
    const rows = parseCsv(csv.body);
    const csvDays = rows.filter((r) => r.kind === 'day');
    expect(csvDays.map((r) => ({ date: r.date, views: Number(r.views), sales: Number(r.sales), revenue: Number(r.revenue) }))).toEqual(report.days);
    const csvProducts = rows.filter((r) => r.kind === 'product').slice(0, 2);
    expect(
      csvProducts.map((r) => ({ id: Number(r.product_id), title: r.title, views: Number(r.views), sales: Number(r.sales), revenue: Number(r.revenue) })),
    ).toEqual(report.products.slice(0, 2));
    expect(rows.at(-1)).toMatchObject({ kind: 'total', views: '11', sales: '4', revenue: ((2 * earnedA + 2 * earnedB) / 100).toFixed(2), currency: 'EUR' });

    // A range of yesterday alone.
    const one = (await creator.client.get(`/api/seller/analytics?from=${day(-1)}&to=${day(-1)}`)).json().payload;
    expect(one.days).toEqual([yesterday]);
    expect(one.totals).toMatchObject({ views: 4, sales: 2 });

    // Another user sees only their own works (none here), never the creator's; a guest is asked to sign in.
    const other = (await fourth.client.get('/api/seller/analytics')).json().payload;
    expect(other.totals).toEqual({ views: 0, sales: 0, revenue: 0, conversion: 0 });
    expect(other.products.map((p: { id: number }) => p.id)).not.toContain(a.id);
    expect((await fourth.client.get('/api/seller/analytics.csv')).body).not.toContain(a.title.slice(0, 20));
    expect((await new TestClient(t.app).get('/api/seller/analytics')).statusCode).toBe(401);
    expect((await new TestClient(t.app).get('/api/seller/analytics.csv')).statusCode).toBe(401);

    // The back office: all sales at full price, and the commission they earned; a user gets 403.
    const staff = await registerStaff(t.app);
    const platform = (await staff.client.get('/api/admin/analytics')).json().payload;
    expect(platform.totals.sales).toBeGreaterThanOrEqual(4);
    expect(platform.totals.views).toBeGreaterThanOrEqual(11);
    const commission = (await revenueMinor(t.app)) - revenueBefore;
    expect(commission).toBe(2 * commissionOf(1000, 20) + 2 * commissionOf(555, 20));
    expect(platform.totals.commission * 100).toBeGreaterThanOrEqual(commission);
    expect(platform.products.find((p: { id: number }) => p.id === a.id)).toEqual({
      id: a.id,
      title: a.title,
      author: expect.any(String),
      views: 6,
      sales: 2,
      revenue: 20,
    });
    const platformCsv = await staff.client.get('/api/admin/analytics.csv');
    expect(platformCsv.statusCode).toBe(200);
    expect(parseCsv(platformCsv.body).at(-1)).toMatchObject({ kind: 'total', sales: String(platform.totals.sales) });
    expect((await creator.client.get('/api/admin/analytics')).statusCode).toBe(403);

    // Views are folded per product per day; no address or session is stored, only the day's hashes.
    const stored = await t.app.db.execute(sql`select visitor from product_view_visitors where product_id in (${a.id}, ${b.id})`);
    const hashes = rowsOf<{ visitor: string }>(stored).map((r) => r.visitor);
    expect(hashes).toHaveLength(11);
    for (const h of hashes) expect(h).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(
      await t.app.db
        .select()
        .from(orders)
        .where(inArray(orders.buyerId, [second.id, third.id, fourth.id])),
    ).toHaveLength(4);
  });

  it('refuses a range that ends before it starts, a bad date, or more than a year, with per-field messages', async () => {
    const me = await registerPerson(t.app);
    const backwards = await me.client.get('/api/seller/analytics?from=2026-03-02&to=2026-03-01');
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors.to[0]).toBe('The end date must not be before the start date.');
    const bad = await me.client.get('/api/seller/analytics?from=2026-02-30');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.from[0]).toContain('real date');
    const long = await me.client.get('/api/seller/analytics.csv?from=2024-01-01&to=2026-01-01');
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.to[0]).toContain('at most 366 days');
  });
});

describe('views without cookies (issue 31 item 2)', () => {
  it('count a visitor by address and browser once per product and day, without any cookie; a buyer who never opened the page is a view', async () => {
    const creator = await registerPerson(t.app);
    const [p] = (await seededProducts(t.app, 'doc')).slice(-3) as [typeof products.$inferSelect];
    await t.app.db.update(products).set({ authorId: creator.id, priceMinor: 700 }).where(eq(products.id, p.id));
    // No cookie is sent and none is needed: the same address and browser twice the same day is one view.
    const bare = (remoteAddress: string, ua: string) =>
      t.app.inject({ method: 'GET', url: `/api/products/${p.slug}/info`, headers: { 'user-agent': ua }, remoteAddress });
    const first = await bare('198.51.100.7', BROWSER['user-agent']);
    expect(first.statusCode).toBe(200);
    expect(first.headers['set-cookie']).toBeUndefined();
    expect((await bare('198.51.100.7', BROWSER['user-agent'])).statusCode).toBe(200);
    const report = async () => (await creator.client.get('/api/seller/analytics')).json().payload;
    const viewsOf = async () => (await report()).products.find((r: { id: number }) => r.id === p.id);
    expect(await viewsOf()).toMatchObject({ views: 1, sales: 0 });
    // Another browser at the same address is another visitor.
    await bare('198.51.100.7', `${BROWSER['user-agent']} Edg/131.0`);
    expect(await viewsOf()).toMatchObject({ views: 2 });

    // A buyer whose browser was never counted (here: never opened the page) still saw what they bought.
    const buyer = await registerPerson(t.app);
    await fund(t.app, buyer.id, 700);
    expect((await buyer.client.post('/api/purchase/buy', { item_id: p.id }, BROWSER)).statusCode).toBe(200);
    expect(await viewsOf()).toMatchObject({ views: 3, sales: 1 });
    // The same buyer opening the page afterwards the same day is no second view.
    expect((await buyer.client.get(`/api/products/${p.slug}/info`, BROWSER)).statusCode).toBe(200);
    expect(await viewsOf()).toMatchObject({ views: 3, sales: 1 });
  });
});

describe('the day-old visitor hashes', () => {
  it("are purged by the hourly job once their day is over; the day's counts stay", async () => {
    const [p] = await seededProducts(t.app, 'prompt');
    await t.app.db.execute(sql`insert into product_view_visitors (day, product_id, visitor) values
      ((now() at time zone 'UTC')::date - 3, ${p!.id}, 'old-visitor-hash-000000'),
      ((now() at time zone 'UTC')::date, ${p!.id}, 'new-visitor-hash-000000')`);
    await t.app.db.execute(sql`insert into view_salts (day, salt) values ((now() at time zone 'UTC')::date - 3, 'old') on conflict do nothing`);
    await t.app.db.execute(sql`insert into product_views (product_id, day, views) values (${p!.id}, (now() at time zone 'UTC')::date - 3, 5)`);
    const job = await t.app.jobs.enqueue(t.app.db, PURGE_VIEW_VISITORS);
    expect(await t.app.jobs.runJob(job!)).toBe(true);
    const left = rowsOf<{ visitor: string }>(await t.app.db.execute(sql`select visitor from product_view_visitors where product_id = ${p!.id}`));
    expect(left.map((r) => r.visitor)).toEqual(['new-visitor-hash-000000']);
    const salts = rowsOf<unknown>(await t.app.db.execute(sql`select day from view_salts where day < (now() at time zone 'UTC')::date - 1`));
    expect(salts).toEqual([]);
    const kept = rowsOf<{ views: number }>(
      await t.app.db.execute(sql`select views from product_views where product_id = ${p!.id} and day = (now() at time zone 'UTC')::date - 3`),
    );
    expect(kept).toEqual([{ views: 5 }]);
  });
});
