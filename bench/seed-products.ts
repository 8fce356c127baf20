import { sql } from 'drizzle-orm';
import type { Db } from '../apps/server/src/db/client';

const ADJECTIVES = [
  'amber',
  'azure',
  'bold',
  'brave',
  'bright',
  'calm',
  'candid',
  'classic',
  'cosmic',
  'crimson',
  'crisp',
  'dusky',
  'electric',
  'emerald',
  'faded',
  'fierce',
  'gentle',
  'gilded',
  'golden',
  'hidden',
  'hollow',
  'icy',
  'ivory',
  'jade',
  'lively',
  'lunar',
  'marble',
  'misty',
  'modern',
  'molten',
  'muted',
  'noble',
  'ochre',
  'pale',
  'playful',
  'polar',
  'quiet',
  'radiant',
  'rustic',
  'scarlet',
  'serene',
  'silent',
  'silver',
  'smoky',
  'solar',
  'stormy',
  'subtle',
  'sunny',
  'tidal',
  'timeless',
  'urban',
  'velvet',
  'vintage',
  'vivid',
  'warm',
  'wild',
  'windy',
  'wintry',
  'young',
  'zesty',
];
const NOUNS = [
  'abbey',
  'alley',
  'anchor',
  'archive',
  'aurora',
  'balcony',
  'beacon',
  'bridge',
  'canyon',
  'castle',
  'cathedral',
  'cliff',
  'compass',
  'coral',
  'crater',
  'delta',
  'desert',
  'dune',
  'ember',
  'estuary',
  'falcon',
  'fjord',
  'forest',
  'fountain',
  'galaxy',
  'garden',
  'glacier',
  'grove',
  'harbour',
  'horizon',
  'island',
  'lagoon',
  'lantern',
  'lighthouse',
  'meadow',
  'mirror',
  'monsoon',
  'mosaic',
  'nebula',
  'orchard',
  'palace',
  'pavilion',
  'prairie',
  'quarry',
  'reef',
  'river',
  'savanna',
  'skyline',
  'summit',
  'temple',
  'tundra',
  'valley',
  'village',
  'volcano',
  'waterfall',
  'willow',
  'window',
  'harvest',
  'meridian',
  'zenith',
];
const TOPICS = ['portrait', 'poster', 'wallpaper', 'newsletter', 'essay', 'template', 'midjourney', 'chatgpt', 'watercolor', 'isometric', 'branding', 'recipe'];

const textArray = (words: string[]) => sql.raw(`(ARRAY[${words.map((w) => `'${w}'`).join(',')}]::text[])`);

/**
 * Adds `count` published products in a handful of SQL statements (generate_series, no row-by-row
 * inserts): titles from 60 adjectives x 60 nouns, a description, a type, a category, two tags, and a
 * rating (one in five unrated, the rest averaging 2 to 5 stars over 1 to 60 reviews).
 * The search document is filled by the triggers of migration 0004 as the rows go in.
 */
export async function bulkInsertProducts(outer: Db, count: number, opts: { vacuum?: boolean } = {}): Promise<void> {
  // A bulk load may take longer than the app's 15 s statement limit; lift it for this transaction only.
  await outer.transaction(async (db) => {
    await db.execute(sql`set local statement_timeout = 0`);
    await db.execute(sql`insert into users (email, password_hash, name, surname, nickname)
    select 'bench' || g || '@example.com', 'x', 'Author' || g, 'Bench', 'bench_author_' || g from generate_series(1, 20) g
    on conflict do nothing`);
    await db.execute(sql`insert into tags (name) select unnest(${textArray(TOPICS)}) on conflict do nothing`);
    await db.execute(sql`
    with a as (select array_agg(id order by id) ids from users where nickname like 'bench_author_%'),
         c as (select array_agg(id order by id) ids from categories where parent_id is not null)
    insert into products (slug, title, description, product_type, category_id, author_id, price_minor, preview_path, popularity, rating_count, rating_sum, created_at)
    select 'bench-' || g,
           initcap(${textArray(ADJECTIVES)}[1 + g % 60] || ' ' || ${textArray(NOUNS)}[1 + (g / 60) % 60]) || ' ' || g,
           'A ' || ${textArray(ADJECTIVES)}[1 + (g * 7) % 60] || ' study of a ' || ${textArray(NOUNS)}[1 + (g * 13) % 60]
             || ' for ' || ${textArray(TOPICS)}[1 + g % 12] || ' work, with notes on light, texture and composition.',
           (array['image','doc','prompt']::product_type[])[1 + g % 3],
           case when coalesce(array_length(c.ids, 1), 0) > 0 then c.ids[1 + g % array_length(c.ids, 1)] end,
           a.ids[1 + g % array_length(a.ids, 1)],
           100 + (g * 37) % 9900,
           'products/bench/preview.webp',
           (g * 31) % 1000,
           r.n,
           2 * r.n + (g * 7) % (3 * r.n + 1),
           now() - (g || ' minutes')::interval
    from generate_series(1, ${count}) g cross join lateral (select case when g % 5 = 0 then 0 else 1 + (g * 17) % 60 end as n) r, a, c`);
    await db.execute(sql`
    insert into product_tags (product_id, tag_id)
    select p.id, t.id from products p
    join tags t on t.name = (${textArray(TOPICS)})[1 + (p.id % 12)] or t.name = (${textArray(TOPICS)})[1 + ((p.id / 12) % 12)]
    where p.slug like 'bench-%'
    on conflict do nothing`);
  });
  // As autovacuum would on a running server: the tag triggers rewrote every row once.
  if (opts.vacuum !== false) await outer.execute(sql`vacuum analyze`);
}
