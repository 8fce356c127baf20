import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { multipartFile, registerPerson, registerSeller } from '../../../test/accounts';
import { listedPrompt, sellPrompt } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { currencies, products, storefronts, users } from '../../db/schema';

/**
 * Storefronts (issue 34): a creator's banner, headline, links and featured works, with their followers
 * and sales. The limits (6 works, 5 links, https only, only their own listed works, the banner's size
 * and type), that only the owner changes it, that a work unlisted since drops out, and the profile page
 * the server sends: the storefront in its HTML and in its Open Graph tags.
 */
const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Atelier</title>
    <meta name="description" content="Buy AI prompts, polished texts and original images directly from their creators." />
  </head>
  <body><div id="root"></div></body>
</html>`;

const t = useTestApp({
  web: { 'dist/index.html': SHELL },
  env: { PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' },
  registration: true,
});
beforeAll(async () => {
  // The page asks for priced answers (the featured works) only once the site has a currency.
  await t.app.db.insert(currencies).values({ code: 'EUR', symbol: '€', isDefault: true }).onConflictDoNothing();
});

const errorsOf = (res: { json(): { errors?: Record<string, string[]> } }) => res.json().errors ?? {};
const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .png()
    .toBuffer();

async function nicknameOf(id: number): Promise<string> {
  const [row] = await t.app.db.select({ nickname: users.nickname }).from(users).where(eq(users.id, id));
  return row!.nickname;
}

/** A creator with `count` listed prompts, titled so a test can find them. */
async function creatorWithWorks(count: number) {
  const creator = await registerSeller(t.app);
  const works: number[] = [];
  for (let i = 0; i < count; i++) works.push(await listedPrompt(t.app, creator.id, 500 + i, { title: `Storefront work ${creator.id}-${i}` }));
  return { ...creator, works, nickname: await nicknameOf(creator.id) };
}

const guest = () => new TestClient(t.app);

describe('the storefront limits', () => {
  it('saves headline, links and featured works in the creator’s order, and shows them publicly with followers and sales', async () => {
    const c = await creatorWithWorks(3);
    const links = [
      { label: 'Portfolio', url: 'https://portfolio.example/me' },
      { label: '', url: 'https://instagram.com/me' },
    ];
    const res = await c.client.put('/api/seller/storefront', { headline: 'Prompts for quiet mornings', links, featured_ids: [c.works[2], c.works[0]] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Your storefront was saved.');
    expect(res.json().payload.featured_ids).toEqual([c.works[2], c.works[0]]);
    // The editor's picker offers the creator's listed works.
    expect(
      res
        .json()
        .payload.works.map((w: { id: number }) => w.id)
        .sort(),
    ).toEqual([...c.works].sort());

    // Two sales and one follower.
    const buyer = await registerPerson(t.app);
    await sellPrompt(t.app, buyer, c.id, 300);
    await sellPrompt(t.app, buyer, c.id, 400);
    expect((await buyer.client.post(`/api/creators/${c.nickname}/follow`)).statusCode).toBe(200);

    const shown = await guest().get(`/api/creators/${c.nickname}/storefront`);
    expect(shown.statusCode, shown.body).toBe(200);
    const s = shown.json().payload;
    expect(s.headline).toBe('Prompts for quiet mornings');
    expect(s.links).toEqual(links);
    expect(s.featured.map((p: { id: number }) => p.id)).toEqual([c.works[2], c.works[0]]);
    expect(s.featured[0].title).toBe(`Storefront work ${c.id}-2`);
    expect(s.followers_count).toBe(1);
    expect(s.sales_count).toBe(2);
    expect(s.banner_url).toBeNull();
    // By id as well as by nickname.
    expect((await guest().get(`/api/creators/${c.id}/storefront`)).json().payload.headline).toBe('Prompts for quiet mornings');
  });

  it('refuses a 7th featured work, a 6th link, a link that is not https (per link), a long headline and a work featured twice', async () => {
    const c = await creatorWithWorks(7);
    const tooMany = await c.client.put('/api/seller/storefront', { featured_ids: c.works });
    expect(tooMany.statusCode).toBe(422);
    expect(errorsOf(tooMany).featured_ids).toEqual(['A storefront may feature at most 6 works.']);

    const six = Array.from({ length: 6 }, (_, i) => ({ label: `L${i}`, url: `https://example.com/${i}` }));
    const sixLinks = await c.client.put('/api/seller/storefront', { links: six });
    expect(sixLinks.statusCode).toBe(422);
    expect(errorsOf(sixLinks).links).toEqual(['A storefront may have at most 5 links.']);

    const bad = await c.client.put('/api/seller/storefront', {
      links: [
        { label: 'ok', url: 'https://example.com' },
        { label: 'plain', url: 'http://example.com' },
        { label: 'script', url: 'javascript:alert(1)' },
        { label: 'none', url: 'example.com' },
      ],
    });
    expect(bad.statusCode).toBe(422);
    const sentence = 'Please enter a full https:// address, such as https://example.com.';
    expect(errorsOf(bad)).toEqual({ 'links.1.url': [sentence], 'links.2.url': [sentence], 'links.3.url': [sentence] });

    const long = await c.client.put('/api/seller/storefront', { headline: 'x'.repeat(121) });
    expect(long.statusCode).toBe(422);
    expect(errorsOf(long).headline).toEqual(['The headline may have at most 120 characters.']);

    const twice = await c.client.put('/api/seller/storefront', { featured_ids: [c.works[0], c.works[0]] });
    expect(twice.statusCode).toBe(422);
    expect(errorsOf(twice).featured_ids).toEqual(['Each work may be featured only once.']);

    // Exactly six works and five links are fine; nothing refused was stored.
    const ok = await c.client.put('/api/seller/storefront', { headline: 'x'.repeat(120), links: six.slice(0, 5), featured_ids: c.works.slice(0, 6) });
    expect(ok.statusCode, ok.body).toBe(200);
    const shown = (await guest().get(`/api/creators/${c.nickname}/storefront`)).json().payload;
    expect(shown.featured).toHaveLength(6);
    expect(shown.links).toHaveLength(5);
  });

  it('features only the creator’s own listed works: another creator’s, a draft or a hidden work is a 422 on its place', async () => {
    const c = await creatorWithWorks(1);
    const other = await creatorWithWorks(1);
    const draft = await listedPrompt(t.app, c.id, 500, { status: 'draft' });
    const hidden = await listedPrompt(t.app, c.id, 500, { status: 'hidden' });
    const res = await c.client.put('/api/seller/storefront', { featured_ids: [c.works[0], other.works[0], draft, hidden, 987654321] });
    expect(res.statusCode).toBe(422);
    const mine = 'Only your own listed works can be featured.';
    expect(errorsOf(res)).toEqual({ 'featured_ids.1': [mine], 'featured_ids.2': [mine], 'featured_ids.3': [mine], 'featured_ids.4': [mine] });
    expect((await c.client.get('/api/seller/storefront')).json().payload.featured_ids).toEqual([]);
  });

  it('drops a featured work from public view once it is unlisted or hidden, and brings it back when listed again', async () => {
    const c = await creatorWithWorks(2);
    expect((await c.client.put('/api/seller/storefront', { featured_ids: c.works })).statusCode).toBe(200);
    await t.app.db.update(products).set({ status: 'hidden' }).where(eq(products.id, c.works[0]!));
    const shown = (await guest().get(`/api/creators/${c.nickname}/storefront`)).json().payload;
    expect(shown.featured.map((p: { id: number }) => p.id)).toEqual([c.works[1]]);
    expect((await c.client.get('/api/seller/storefront')).json().payload.featured_ids).toEqual([c.works[1]]);
    await t.app.db.update(products).set({ status: 'published' }).where(eq(products.id, c.works[0]!));
    const again = (await guest().get(`/api/creators/${c.nickname}/storefront`)).json().payload;
    expect(again.featured.map((p: { id: number }) => p.id)).toEqual(c.works);
  });

  it('only the owner changes a storefront: a second user’s save changes only their own, and cannot feature the first one’s works', async () => {
    const first = await creatorWithWorks(1);
    expect((await first.client.put('/api/seller/storefront', { headline: 'First’s own', featured_ids: first.works })).statusCode).toBe(200);
    const second = await creatorWithWorks(0);
    const steal = await second.client.put('/api/seller/storefront', { headline: 'Taken over', featured_ids: first.works });
    expect(steal.statusCode).toBe(422);
    expect(errorsOf(steal)['featured_ids.0']).toEqual(['Only your own listed works can be featured.']);
    expect((await second.client.put('/api/seller/storefront', { headline: 'Taken over' })).statusCode).toBe(200);
    expect((await second.client.delete('/api/seller/storefront/banner')).statusCode).toBe(200);
    const firstShown = (await guest().get(`/api/creators/${first.nickname}/storefront`)).json().payload;
    expect(firstShown.headline).toBe('First’s own');
    expect(firstShown.featured.map((p: { id: number }) => p.id)).toEqual(first.works);
    expect((await guest().get(`/api/creators/${second.nickname}/storefront`)).json().payload.headline).toBe('Taken over');
    // A guest changes nothing.
    const anonymous = guest();
    expect((await anonymous.put('/api/seller/storefront', { headline: 'Guest' })).statusCode).toBe(401);
    expect(
      (await anonymous.request('POST', '/api/seller/storefront/banner', multipartFile('banner', 'b.png', 'image/png', await png(60, 20)))).statusCode,
    ).toBe(401);
    expect((await anonymous.delete('/api/seller/storefront/banner')).statusCode).toBe(401);
  });

  it('answers 404 for a creator who does not exist', async () => {
    const res = await guest().get('/api/creators/no-such-creator-here/storefront');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('This creator does not exist.');
  });
});

describe('the banner', () => {
  it('re-encodes an image to a wide WebP without metadata, replaces and removes it', async () => {
    const c = await creatorWithWorks(0);
    const res = await c.client.request('POST', '/api/seller/storefront/banner', multipartFile('banner', 'wide.png', 'image/png', await png(1800, 700)));
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json().payload.banner_url as string;
    expect(url).toMatch(new RegExp(`^/storage/banners/${c.id}/[a-f0-9]+\\.webp$`));
    const meta = await sharp((await t.app.inject({ url })).rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 1500, 500, undefined]);
    expect((await guest().get(`/api/creators/${c.nickname}/storefront`)).json().payload.banner_url).toBe(url);

    const next = await c.client.request('POST', '/api/seller/storefront/banner', multipartFile('banner', 'next.png', 'image/png', await png(900, 300)));
    expect(next.statusCode).toBe(200);
    expect(next.json().payload.banner_url).not.toBe(url);
    // The replaced file is gone from storage.
    expect((await t.app.inject({ url })).statusCode).toBe(404);

    const removed = await c.client.delete('/api/seller/storefront/banner');
    expect(removed.statusCode).toBe(200);
    expect(removed.json().payload.banner_url).toBeNull();
    expect((await t.app.inject({ url: next.json().payload.banner_url })).statusCode).toBe(404);
  });

  it('refuses a file over 5 MB and a file that is not an image', async () => {
    const c = await creatorWithWorks(0);
    const big = Buffer.concat([await png(10, 10), Buffer.alloc(5 * 1024 * 1024 + 10)]);
    const tooBig = await c.client.request('POST', '/api/seller/storefront/banner', multipartFile('banner', 'big.png', 'image/png', big));
    expect(tooBig.statusCode).toBe(422);
    expect(errorsOf(tooBig).banner).toEqual(['The banner may be at most 5 MB.']);
    const script = Buffer.from('#!/bin/sh\necho not an image\n');
    const notImage = await c.client.request('POST', '/api/seller/storefront/banner', multipartFile('banner', 'evil.png', 'image/png', script));
    expect(notImage.statusCode).toBe(422);
    expect(errorsOf(notImage).banner).toEqual(['Please select an image file']);
    const wrongField = await c.client.request('POST', '/api/seller/storefront/banner', multipartFile('avatar', 'b.png', 'image/png', await png(60, 20)));
    expect(wrongField.statusCode).toBe(422);
    // A banner just under the limit passes.
    const justUnder = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: '#123456' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(justUnder.length).toBeLessThan(5 * 1024 * 1024);
    expect((await c.client.request('POST', '/api/seller/storefront/banner', multipartFile('banner', 'ok.png', 'image/png', justUnder))).statusCode).toBe(200);
  });
});

describe('a deleted account', () => {
  it('takes its storefront and banner along', async () => {
    const c = await creatorWithWorks(1);
    await c.client.put('/api/seller/storefront', { headline: 'Soon gone', featured_ids: c.works });
    const banner = await c.client.request('POST', '/api/seller/storefront/banner', multipartFile('banner', 'b.png', 'image/png', await png(300, 100)));
    const url = banner.json().payload.banner_url as string;
    expect((await c.client.delete('/api/user/delete', { password: c.password })).statusCode).toBe(200);
    expect((await guest().get(`/api/creators/${c.id}/storefront`)).statusCode).toBe(404);
    expect((await t.app.inject({ url })).statusCode).toBe(404);
    expect(await t.app.db.select().from(storefronts).where(eq(storefronts.creatorId, c.id))).toEqual([]);
  });
});

describe('the storefront rendered on the server', () => {
  const page = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
  const metaOf = (html: string, key: string) => new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];

  it('puts the headline, the featured works and the Open Graph tags (banner as og:image) into the profile page', async () => {
    const c = await creatorWithWorks(2);
    const hidden = await listedPrompt(t.app, c.id, 900, { title: 'Quietly unlisted work' });
    await c.client.put('/api/seller/storefront', { headline: 'Maps & prompts for <quiet> mornings', featured_ids: [c.works[1], hidden] });
    await t.app.db.update(products).set({ status: 'hidden' }).where(eq(products.id, hidden));

    // Without a banner the avatar stands in (none here: no image at all).
    let html = (await page(`/profile/${c.nickname}`)).body;
    expect(metaOf(html, 'og:description')).toBe('Maps &amp; prompts for &lt;quiet&gt; mornings');
    expect(metaOf(html, 'og:image')).toBeUndefined();

    const banner = await c.client.request('POST', '/api/seller/storefront/banner', multipartFile('banner', 'b.png', 'image/png', await png(1500, 500)));
    const bannerUrl = banner.json().payload.banner_url as string;
    const res = await page(`/profile/${c.nickname}`);
    expect(res.statusCode).toBe(200);
    html = res.body;
    const [creator] = await t.app.db.select({ name: users.name, surname: users.surname }).from(users).where(eq(users.id, c.id));
    expect(metaOf(html, 'og:title')).toBe(`${creator!.name} ${creator!.surname} (@${c.nickname})`);
    expect(metaOf(html, 'og:description')).toBe('Maps &amp; prompts for &lt;quiet&gt; mornings');
    expect(metaOf(html, 'og:url')).toBe(`https://atelier.example/profile/${c.nickname}`);
    expect(metaOf(html, 'og:image')).toBe(`https://atelier.example${bannerUrl}`);
    expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
    // The storefront's answer rides in the page (the browser renders from it without asking again):
    // the headline, the featured work, and not the work unlisted since.
    const preload = JSON.parse(/<script type="application\/json" id="atelier-preload">([\s\S]*?)<\/script>/.exec(html)![1]!);
    const key = Object.keys(preload).find((k) => k.startsWith(`/api/creators/${c.nickname}/storefront`))!;
    const answer = preload[key].body.payload;
    expect(answer.headline).toBe('Maps & prompts for <quiet> mornings');
    expect(answer.featured.map((p: { title: string }) => p.title)).toEqual([`Storefront work ${c.id}-1`]);
    expect(html).toContain(`Storefront work ${c.id}-1`);
    expect(html).not.toContain('Quietly unlisted work');
  });
});
