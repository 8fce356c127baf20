import { and, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { categories, products, tags, users } from '../../db/schema';

const t = useTestApp({ seed: true });

/** What the database holds, so no test repeats the seed's numbers by hand. */
async function publishedCount(where?: Parameters<typeof and>[0], opts: { packs?: boolean } = {}) {
  const [row] = await t.app.db
    .select({ n: count() })
    .from(products)
    .where(and(eq(products.status, 'published'), opts.packs ? undefined : ne(products.productType, 'pack'), where));
  return row!.n;
}

const get = (url: string, headers?: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
type P = { id: number; slug: string; title: string; price: number; product_type: string; category_id: number | null; tags: string[]; items?: P[] };

describe('catalogue list', () => {
  it('pages with a default of 6, newest id first, with total and pages', async () => {
    const res = await get('/api/products/catalog');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('OK');
    expect(body.payload).toHaveLength(6);
    expect(body.meta).toEqual({ total: 39, pages: 7, page: 1, limit: 6 });
    const ids = body.payload.map((p: P) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(Object.keys(body.payload.find((p: P) => p.product_type !== 'pack')).sort()).toEqual(
      [
        'author',
        'authorAvatarUrl',
        'authorNickname',
        'category_id',
        'created_at',
        'currency',
        'currencySymbol',
        'description',
        'doc_url',
        'file_type',
        'id',
        'imageSrcSet',
        'imageUrl',
        'price',
        'product_type',
        'rating_average',
        'rating_count',
        // Issue 34: a running sale, null without one.
        'sale',
        'slug',
        'tags',
        'title',
      ].sort(),
    );
  });

  it('answers a page past the last with an empty payload and the right meta', async () => {
    const body = (await get('/api/products/catalog?page=99&limit=10')).json();
    expect(body.payload).toEqual([]);
    expect(body.meta).toEqual({ total: 39, pages: 4, page: 99, limit: 10 });
  });

  it('refuses a bad sort, limit or product type with 422 and a message per field', async () => {
    const res = await get('/api/products/catalog?sort=name~up&limit=500&product_type=video');
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.status).toBe('ERROR');
    expect(body.errors.sort[0]).toMatch(/sort must be one of/);
    expect(body.errors.limit[0]).toMatch(/limit must be a whole number from 1 to 48/);
    expect(body.errors.product_type[0]).toMatch(/product type must be one of/);
    expect((await get('/api/products/catalog?limit=abc')).json().errors.limit).toBeDefined();
    expect((await get('/api/products/random?product_type=video')).statusCode).toBe(422);
  });

  it('sorts by price both ways', async () => {
    const asc = (await get('/api/products/catalog?sort=price~asc&limit=48')).json().payload.map((p: P) => p.price);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = (await get('/api/products/catalog?sort=price~desc&limit=48')).json().payload.map((p: P) => p.price);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect((await get('/api/products/catalog?sort=popularity~desc')).statusCode).toBe(200);
    expect((await get('/api/products/catalog?sort=created_at~desc')).statusCode).toBe(200);
  });

  it('filters by product type', async () => {
    const body = (await get('/api/products/catalog?product_type=prompt&limit=48')).json();
    expect(body.meta.total).toBe(await publishedCount(eq(products.productType, 'prompt')));
    expect(body.meta.total).toBeGreaterThan(1);
    expect(body.payload.every((p: P) => p.product_type === 'prompt')).toBe(true);
  });

  it('includes the subcategories of a parent category, and takes several ids', async () => {
    const cats = (await get('/api/categories')).json().payload as { id: number; parent_id: number | null; url: string }[];
    const images = cats.find((c) => c.url === 'images')!;
    const childIds = cats.filter((c) => c.parent_id === images.id).map((c) => c.id);
    expect(childIds).toHaveLength(3);
    const body = (await get(`/api/products/catalog?categories_id=${images.id}&limit=48`)).json();
    expect(body.meta.total).toBe(await publishedCount(inArray(products.categoryId, childIds)));
    expect(body.meta.total).toBeGreaterThan(1);
    expect(body.payload.every((p: P) => childIds.includes(p.category_id!))).toBe(true);
    const two = (await get(`/api/products/catalog?categories_id=${childIds[0]},${childIds[1]}&limit=48`)).json();
    const inTwo = await publishedCount(inArray(products.categoryId, childIds.slice(0, 2)));
    expect(two.meta.total).toBe(inTwo);
    expect(inTwo).toBeLessThan(body.meta.total);
    const repeated = (await get(`/api/products/catalog?categories_id=${childIds[0]}&categories_id=${childIds[1]}&limit=48`)).json();
    expect(repeated.meta.total).toBe(inTwo);
  });
});

describe('file type of a product', () => {
  it('names the kind of file a buyer gets by its extension, and none for a prompt', async () => {
    const docs = (await get('/api/products/catalog?product_type=doc&limit=48')).json().payload as (P & { file_type: string | null })[];
    const stored = await t.app.db.select({ slug: products.slug, name: products.originalName }).from(products).where(eq(products.productType, 'doc'));
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) {
      const name = stored.find((r) => r.slug === doc.slug)!.name!;
      expect(doc.file_type).toBe(name.split('.').pop()!.toUpperCase());
    }
    const prompts = (await get('/api/products/catalog?product_type=prompt&limit=48')).json().payload as { file_type: string | null }[];
    expect(prompts.every((p) => p.file_type === null)).toBe(true);
  });
});

describe('works of one creator', () => {
  const authorId = async (nickname: string) => {
    const [row] = await t.app.db.select({ id: users.id }).from(users).where(eq(users.nickname, nickname));
    return Number(row!.id);
  };

  it('lists only the works of the author a nickname (any case) or an id names, paged and sorted', async () => {
    const id = await authorId('sofia');
    const all = (await get('/api/products/catalog?author=sofia&limit=48')).json();
    expect(all.meta.total).toBe(await publishedCount(eq(products.authorId, id), { packs: true }));
    expect(all.meta.total).toBeGreaterThan(6);
    expect(all.payload.every((p: P & { authorNickname: string }) => p.authorNickname === 'sofia')).toBe(true);
    // The public profile counts the same works.
    expect((await get('/api/user/public-profile/sofia')).json().payload.products_count).toBe(all.meta.total);

    const upper = (await get('/api/products/catalog?author=SOFIA&limit=48')).json();
    expect(upper.payload.map((p: P) => p.id)).toEqual(all.payload.map((p: P) => p.id));
    const byId = (await get(`/api/products/catalog?author=${id}&limit=48`)).json();
    expect(byId.payload.map((p: P) => p.id)).toEqual(all.payload.map((p: P) => p.id));

    const cheapFirst = (await get('/api/products/catalog?author=sofia&sort=price~asc&limit=48')).json();
    const prices = cheapFirst.payload.map((p: P) => p.price);
    expect(prices).toEqual([...prices].sort((a: number, b: number) => a - b));
    const second = (await get('/api/products/catalog?author=sofia&page=2')).json();
    expect(second.meta).toMatchObject({ total: all.meta.total, page: 2, limit: 6 });
    expect(second.payload.map((p: P) => p.id)).toEqual(all.payload.slice(6, 12).map((p: P) => p.id));
  });

  it('answers an unknown author with an empty list, and refuses an overlong one with 422 naming the field', async () => {
    const none = (await get('/api/products/catalog?author=nobody-here')).json();
    expect(none).toMatchObject({ status: 'OK', payload: [], meta: { total: 0, pages: 0 } });
    const long = await get(`/api/products/catalog?author=${'a'.repeat(61)}`);
    expect(long.statusCode).toBe(422);
    expect(Object.keys(long.json().errors)).toEqual(['author']);
  });
});

describe('search', () => {
  it('finds a product by a word only in its description', async () => {
    // "fjord" is in the description of Aurora Over Fjords only as "fjord"; "teal" is only there.
    const body = (await get('/api/products/catalog?search=teal')).json();
    expect(body.payload.map((p: P) => p.title)).toEqual(['Aurora Over Fjords']);
  });

  it('finds a product by a misspelled title word', async () => {
    const body = (await get('/api/products/catalog?search=lanterm')).json();
    expect(body.payload.map((p: P) => p.title)).toContain('Lantern Festival');
  });

  const titles = async (search: string) =>
    (await get(`/api/products/catalog?limit=48&search=${encodeURIComponent(search)}`)).json().payload.map((p: P) => p.title) as string[];
  const packTitles = async (query: string) => (await get(`/api/packs?limit=48&${query}`)).json().payload.map((p: P) => p.title) as string[];

  it('forgives one typo in a word of 5 to 8 letters, a swap of two letters included', async () => {
    expect(await titles('portriat')).toContain('Cinematic Portrait Prompt');
    expect(await packTitles('search=portriat')).toEqual(['Prompt Essentials']);
    expect(await titles('essentails')).toEqual(['Prompt Essentials']);
    expect(await titles('cinemtaic portriat')).toEqual(['Cinematic Portrait Prompt']);
    // Insert, delete, substitute.
    expect(await titles('lanterrn')).toContain('Lantern Festival');
    expect(await titles('lantrn')).toContain('Lantern Festival');
    expect(await titles('lanturn')).toContain('Lantern Festival');
  });

  it('forgives two typos only from 9 letters on, and none in shorter words', async () => {
    expect(await titles('cinimatik')).toEqual(['Cinematic Portrait Prompt']);
    expect(await titles('colectoin')).toEqual(['Night Lights Collection']);
    // Two typos in 8 letters, one in 4 letters: nothing.
    expect(await titles('protriat')).toEqual([]);
    expect(await titles('lgoo')).toEqual([]);
    expect(await titles('logo')).toContain('Logo Concept Explorer');
  });

  it('keeps the meaning of phrases and exclusions when it corrects a word', async () => {
    // "...film grain and shallow depth of field."
    expect(await titles('"shallow detph"')).toEqual(['Cinematic Portrait Prompt']);
    expect(await titles('"detph shallow"')).toEqual([]);
    expect(await titles('portriat -cinematic')).not.toContain('Cinematic Portrait Prompt');
  });

  it('corrects towards words that arrive later: a new title, a renamed tag', async () => {
    await t.app.db.update(products).set({ title: 'Velvet Marmalade Set' }).where(eq(products.slug, 'velvet-gradient-set'));
    await t.app.db.update(tags).set({ name: 'chiaroscuro' }).where(eq(tags.name, 'film'));
    try {
      expect(await titles('marmelade')).toEqual(['Velvet Marmalade Set']);
      expect(await titles('chiaroscruo')).toEqual(['Cinematic Portrait Prompt']);
    } finally {
      await t.app.db.update(products).set({ title: 'Velvet Gradient Set' }).where(eq(products.slug, 'velvet-gradient-set'));
      await t.app.db.update(tags).set({ name: 'film' }).where(eq(tags.name, 'chiaroscuro'));
    }
  });

  it('ranks products matching the words as typed above those found through a typo', async () => {
    // "night" is one typo away from "light": both come back, every "night" first.
    const found = (await get('/api/products/catalog?limit=48&search=night')).json().payload as (P & { description: string })[];
    const exact = found.map((p) => /\bnight/i.test(`${p.title} ${p.description} ${p.tags.join(' ')}`));
    expect(exact.filter((e) => e).length).toBeGreaterThan(1);
    expect(exact.filter((e) => !e).length).toBeGreaterThan(0);
    expect(exact.indexOf(false)).toBe(exact.lastIndexOf(true) + 1);
    expect(found.map((p) => p.title)).toContain('Glasshouse Morning');
  });

  it('finds products by tag and by author, best matches first', async () => {
    const byTag = (await get('/api/products/catalog?search=aurora&limit=48')).json().payload.map((p: P) => p.title);
    expect(byTag[0]).toBe('Aurora Over Fjords');
    const byAuthor = (await get('/api/products/catalog?search=mirachen&limit=48')).json();
    expect(byAuthor.meta.total).toBeGreaterThan(0);
  });

  it('treats any input as words, never as syntax', async () => {
    const res = await get(`/api/products/catalog?search=${encodeURIComponent("'); drop table products; -- & | !")}`);
    expect(res.statusCode).toBe(200);
    expect((await get('/api/products/catalog')).json().meta.total).toBe(await publishedCount(undefined, { packs: true }));
  });

  it('pages search results, keeps the total past the last page, and honours an explicit sort', async () => {
    const all = (await get('/api/products/catalog?search=night&limit=48')).json();
    expect(all.meta.total).toBeGreaterThan(2);
    const past = (await get('/api/products/catalog?search=night&page=50')).json();
    expect(past.payload).toEqual([]);
    expect(past.meta).toEqual({ total: all.meta.total, pages: Math.ceil(all.meta.total / 6), page: 50, limit: 6 });
    const cheap = (await get('/api/products/catalog?search=night&sort=price~asc&limit=48')).json().payload.map((p: P) => p.price);
    expect(cheap).toEqual([...cheap].sort((a, b) => a - b));
    expect(cheap).toHaveLength(all.meta.total);
  });

  it('searches packs', async () => {
    const body = (await get('/api/packs?search=night')).json();
    expect(body.payload.map((p: P) => p.product_type)).toEqual(['pack']);
  });

  it('filters packs by the type of works they hold', async () => {
    expect(await packTitles('product_type=image')).toEqual(['Night Lights Collection']);
    expect(await packTitles('product_type=doc')).toEqual(['Launch Starter Kit']);
    expect(await packTitles('product_type=prompt')).toEqual(['Prompt Essentials']);
    expect((await packTitles('product_type=pack')).sort()).toEqual(['Launch Starter Kit', 'Night Lights Collection', 'Prompt Essentials']);
    const prompts = (await get('/api/packs?product_type=prompt&search=portriat')).json();
    expect(prompts.meta.total).toBe(1);
    expect((await get('/api/packs?product_type=image&search=portrait')).json().meta.total).toBe(0);
    expect((await get('/api/packs?product_type=video')).json().errors.product_type[0]).toMatch(/product type must be one of/);
  });
});

describe('typo distance', () => {
  it('counts a swap of two neighbouring letters as one edit, and nothing else as less than Levenshtein', async () => {
    const pairs: [string, string, number][] = [
      ['portriat', 'portrait', 1],
      ['essentails', 'essentials', 1],
      ['lantern', 'lantern', 0],
      ['lanterm', 'lantern', 1],
      ['glacer', 'glacier', 1],
      ['cinimatik', 'cinematic', 2],
      ['kitten', 'sitting', 3],
      ['abcdef', 'badcfe', 3],
      // Optimal string alignment: a swapped pair is not edited again (true Damerau would say 2).
      ['ca', 'abc', 3],
      ['', 'abc', 3],
    ];
    for (const [a, b, distance] of pairs) {
      const result = await t.app.db.execute(sql`select osa_distance(${a}, ${b}) as d`);
      expect(Number(rowsOf<{ d: number }>(result)[0]!.d), `${a} ${b}`).toBe(distance);
    }
  });
});

describe('money on display', () => {
  it('prices in USD equal EUR times the rate, rounded once', async () => {
    const eur = (await get('/api/products/catalog?limit=48')).json().payload as P[];
    const usd = (await get('/api/products/catalog?limit=48', { 'x-currency': 'USD' })).json();
    expect(usd.payload[0].currency).toBe('USD');
    expect(usd.payload[0].currencySymbol).toBe('$');
    for (const [i, p] of (usd.payload as P[]).entries()) expect(p.price).toBe(Math.round(eur[i]!.price * 100 * 1.08) / 100);
    const byParam = (await get('/api/products/catalog?limit=48&currency=gbp')).json().payload as P[];
    expect(byParam[0]!.price).toBe(Math.round(eur[0]!.price * 100 * 0.85) / 100);
    expect(eur[0]!.price).toBeGreaterThan(0);
  });

  it('refuses an unknown currency with 422 naming the field', async () => {
    for (const res of [await get('/api/products/catalog?currency=XYZ'), await get('/api/products/random', { 'x-currency': 'XYZ' })]) {
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.currency[0]).toMatch(/not available/);
    }
  });
});

describe('product and pack details', () => {
  it('finds a product by slug or by id', async () => {
    const bySlug = (await get('/api/products/aurora-over-fjords/info')).json().payload;
    expect(bySlug.title).toBe('Aurora Over Fjords');
    expect(bySlug.tags).toEqual(['aurora', 'landscape', 'night']);
    expect(bySlug.imageUrl).toBe('/storage/products/aurora-over-fjords/preview.webp');
    // Every copy the srcset names is served.
    const copies = (bySlug.imageSrcSet as string).split(', ').map((entry) => entry.split(' ')[0]!);
    expect(copies).toHaveLength(3);
    for (const url of copies) expect((await get(url)).statusCode, url).toBe(200);
    const byId = (await get(`/api/products/${bySlug.id}/info`)).json().payload;
    expect(byId.slug).toBe('aurora-over-fjords');
    const missing = await get('/api/products/no-such-thing/info');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().status).toBe('ERROR');
  });

  it('lists packs with their items and shows a pack with its items', async () => {
    const list = (await get('/api/packs')).json();
    expect(list.meta.total).toBe(3);
    expect(list.payload.every((p: P) => p.product_type === 'pack' && (p.items?.length ?? 0) > 0)).toBe(true);
    const pack = (await get('/api/packs/night-lights-collection/info')).json().payload as P;
    expect(pack.items!.map((i) => i.title)).toEqual(['Aurora Over Fjords', 'Neon Tokyo Alley', 'Lantern Festival', 'Harbour at Dusk']);
    expect((await get('/api/packs/aurora-over-fjords/info')).statusCode).toBe(404);
  });

  it('serves random, favourite and new products', async () => {
    const random = (await get('/api/products/random')).json().payload as P[];
    expect(random).toHaveLength(9);
    const prompts = (await get('/api/products/random?product_type=prompt&limit=10')).json().payload as P[];
    expect(prompts).toHaveLength(10);
    expect(prompts.every((p) => p.product_type === 'prompt')).toBe(true);
    expect((await get('/api/products/favorites')).json().payload.length).toBeGreaterThan(0);
    expect((await get('/api/products/new-items')).json().payload.length).toBeGreaterThan(0);
  });

  it('shows only published products', async () => {
    await t.app.db.update(products).set({ status: 'hidden' }).where(eq(products.slug, 'velvet-gradient-set'));
    expect((await get('/api/products/velvet-gradient-set/info')).statusCode).toBe(404);
    const found = (await get('/api/products/catalog?search=velvet&limit=48')).json().payload as P[];
    expect(found.map((p) => p.slug)).not.toContain('velvet-gradient-set');
    await t.app.db.update(products).set({ status: 'published' }).where(eq(products.slug, 'velvet-gradient-set'));
  });

  it('lists categories and tags', async () => {
    const cats = (await get('/api/categories')).json().payload;
    const [stored] = await t.app.db.select({ n: count() }).from(categories);
    expect(cats).toHaveLength(stored!.n);
    expect(cats[0]).toEqual({ id: expect.any(Number), parent_id: null, title: 'Images', url: 'images' });
    const tags = (await get('/api/tags')).json().payload as { name: string }[];
    expect(tags.map((x) => x.name)).toContain('aurora');
  });
});

describe('HTTP caching', () => {
  it('gives public answers an ETag and Cache-Control and answers 304 when unchanged', async () => {
    const first = await get('/api/products/catalog');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toContain('public');
    const again = await get('/api/products/catalog', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const otherCurrency = await get('/api/products/catalog', { 'if-none-match': etag, 'x-currency': 'USD' });
    expect(otherCurrency.statusCode).toBe(200);
    const site = await get('/api/settings');
    expect((await get('/api/settings', { 'if-none-match': site.headers.etag as string })).statusCode).toBe(304);
  });

  it('never caches errors or session answers', async () => {
    const bad = await get('/api/products/catalog?sort=x');
    expect(bad.headers.etag).toBeUndefined();
    const csrf = await get('/sanctum/csrf-cookie');
    expect(csrf.headers.etag).toBeUndefined();
    expect((await get('/api/is-auth')).headers.etag).toBeUndefined();
  });
});

describe('malformed input', () => {
  it('refuses a NUL character in the search, the currency or a slug with 422 naming the field', async () => {
    const cases: [string, string, string, string][] = [
      ['/api/products/catalog?search=a%00b', 'search', 'The search may not contain a NUL character.', 'field.nul?field=search'],
      ['/api/packs?search=%00', 'search', 'The search may not contain a NUL character.', 'field.nul?field=search'],
      ['/api/products/catalog?currency=%00', 'currency', 'The currency may not contain a NUL character.', 'field.nul?field=currency'],
      ['/api/products/a%00b/info', 'slug', 'The product may not contain a NUL character.', 'field.nul?field=product'],
      ['/api/packs/%00/info', 'slug', 'The product may not contain a NUL character.', 'field.nul?field=product'],
    ];
    for (const [url, field, message, code] of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(422);
      // Issue 31: each message also travels as its key, for the web app to translate.
      expect(res.json(), url).toEqual({ status: 'ERROR', message, code, errors: { [field]: [message] }, codes: { [field]: [code] } });
    }
  });

  it('refuses a category id beyond the range of ids, and answers 404 for a product id beyond it', async () => {
    const res = await get('/api/products/catalog?categories_id=9223372036854775808');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors['categories_id.0']).toEqual(['The category id must be a whole number from 1 to 9007199254740991.']);
    for (const url of ['/api/products/9223372036854775808/info', '/api/packs/123456789012345678901234/info']) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });
});
