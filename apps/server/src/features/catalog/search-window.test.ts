import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { COUNTED_UP_TO } from './catalog.queries';

/**
 * Past COUNTED_UP_TO matches a search ranks a window of them and estimates its total (the bench
 * case search-million.ts times it at a million works); here with just over that many.
 */
const t = useTestApp({ seed: true });
const BEACONS = COUNTED_UP_TO + 500;
const BACONS = 5;
beforeAll(async () => {
  // 'bacon' is one typo from 'beacon': each word finds the other's products through a typo.
  await t.app.db.execute(sql`
    insert into products (slug, title, description, product_type, author_id, price_minor, rating_count, rating_sum)
    select 'beacon-' || g, 'Beacon ' || g, 'A signal lamp.', 'image', (select min(id) from users), 100 + (g * 37) % 900, g % 5, (g % 5) * (1 + g % 4)
    from generate_series(1, ${BEACONS}) g`);
  await t.app.db.execute(sql`
    insert into products (slug, title, description, product_type, author_id, price_minor)
    select 'bacon-' || g, 'Bacon ' || g, 'A breakfast.', 'image', (select min(id) from users), 100 + g from generate_series(1, ${BACONS}) g`);
  // As autovacuum would: the estimates read the table's statistics.
  await t.app.db.execute(sql`analyze`);
});

const get = async (url: string) => (await t.app.inject({ method: 'GET', url })).json();
type Card = { title: string; price: number; rating_average: number; rating_count: number };

describe('a search with more than a thousand matches', () => {
  it('says its total is an estimate, pages through its best thousand, and shows exact matches first', async () => {
    const first = await get('/api/products/catalog?search=beacon&limit=48');
    expect(first.meta.total_estimated).toBe(true);
    expect(first.meta.total).toBeGreaterThan(COUNTED_UP_TO);
    expect(first.meta.total).toBeLessThan((BEACONS + BACONS) * 1.5);
    expect(first.meta.pages).toBe(Math.ceil(COUNTED_UP_TO / 48));
    expect(first.payload.every((p: Card) => p.title.startsWith('Beacon'))).toBe(true);
    const last = await get(`/api/products/catalog?search=beacon&limit=48&page=${first.meta.pages}`);
    expect(last.payload.length).toBe(COUNTED_UP_TO - 48 * (first.meta.pages - 1));
    const past = await get(`/api/products/catalog?search=beacon&limit=48&page=${first.meta.pages + 1}`);
    expect(past.payload).toEqual([]);
    expect(past.meta.total_estimated).toBe(true);
  });

  it('puts the few exact matches before a thousand found through a typo', async () => {
    const found = await get('/api/products/catalog?search=bacon&limit=12');
    expect(found.meta.total_estimated).toBe(true);
    expect(found.payload.slice(0, BACONS).every((p: Card) => p.title.startsWith('Bacon '))).toBe(true);
    expect(found.payload.slice(BACONS).every((p: Card) => p.title.startsWith('Beacon '))).toBe(true);
  });

  it('honours an explicit sort: the rating from its index, the price over the window', async () => {
    const rated = (await get('/api/products/catalog?search=beacon&sort=rating~desc&limit=48')).payload as Card[];
    expect(rated).toHaveLength(48);
    expect(rated[0]!.rating_average).toBe(4);
    const averages = rated.map((p) => p.rating_average);
    expect(averages).toEqual([...averages].sort((a, b) => b - a));
    const cheap = await get('/api/products/catalog?search=beacon&sort=price~asc&limit=48');
    expect(cheap.meta.total_estimated).toBe(true);
    const prices = (cheap.payload as Card[]).map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('counts a smaller search exactly and says nothing of an estimate', async () => {
    const few = await get('/api/products/catalog?search=beacon%201001');
    expect(few.meta.total_estimated).toBeUndefined();
    expect(few.meta.total).toBe(1);
  });
});

describe('a catalogue list of more than a thousand works', () => {
  it('gives an estimated total close to the count, with pages to match, and counts a short list exactly', async () => {
    const [row] = rowsOf<{ n: number }>(
      await t.app.db.execute(
        sql`select count(*)::int as n from products p join users u on u.id = p.author_id where p.status = 'published' and u.deleted_at is null`,
      ),
    );
    const list = await get('/api/products/catalog?limit=48');
    expect(list.meta.total_estimated).toBe(true);
    expect(Math.abs(list.meta.total - row!.n)).toBeLessThanOrEqual(row!.n / 4);
    expect(list.meta.pages).toBe(Math.ceil(list.meta.total / 48));
    const packs = await get('/api/products/catalog?product_type=pack');
    expect(packs.meta.total_estimated).toBeUndefined();
  });
});
