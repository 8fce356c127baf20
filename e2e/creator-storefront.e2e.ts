import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, open, screenshot } from './browser';
import { personContext, signIn } from './flows';
import { ownServer } from './server';

/**
 * A creator's storefront in the browser (issue 34), on a server of its own (the storefront of the demo
 * creator must not change the shared server's profile pages): the creator writes a headline, adds a
 * link, features two works in order and uploads a banner on the Storefront tab; a visitor then gets
 * the profile page rendered on the server with it (and its Open Graph tags), on a wide screen and a phone.
 */
const baseUrl = ownServer('creator-storefront');
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const newContext = (viewport = { width: 1280, height: 900 }) => personContext(browser, baseUrl(), viewport);

const metaOf = (html: string, key: string) => new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];

describe('a creator’s storefront in the browser', () => {
  it('issue 34: the creator arranges the storefront; the profile page arrives rendered with it, at 1280 and 375 px', { timeout: 240_000 }, async () => {
    const creator = await newContext();
    await signIn(creator.page, 'seller@example.com', baseUrl());
    await open(creator.page, `${baseUrl()}/dashboard/storefront`);
    const editor = creator.page.getByTestId('storefront-editor');
    await editor.getByLabel('Headline').fill('Northern light, prompts and prints');
    await editor.getByRole('button', { name: 'Add a link' }).click();
    await editor.getByLabel('Label (optional)').fill('Portfolio');
    await editor.getByLabel('Address').fill('https://portfolio.example/sofia');
    const feature = editor.getByTestId('featurable-works').getByRole('button', { name: /^Feature: / });
    const first = ((await feature.nth(0).getAttribute('aria-label')) ?? '').replace('Feature: ', '');
    await feature.nth(0).click();
    const second = ((await feature.nth(0).getAttribute('aria-label')) ?? '').replace('Feature: ', '');
    await feature.nth(0).click();
    // The second one first.
    await editor.getByRole('button', { name: `Move ${second} up` }).click();
    await editor.getByRole('button', { name: 'Save storefront' }).click();
    await creator.page.getByText('Your storefront was saved.').first().waitFor();

    const banner = await sharp({ create: { width: 1500, height: 500, channels: 3, background: { r: 40, g: 70, b: 120 } } })
      .png()
      .toBuffer();
    await creator.page.locator('#banner-input').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: banner });
    await editor.getByTestId('storefront-banner-preview').waitFor();
    await screenshot(creator.page, 'storefront-editor-1280');
    await creator.page.setViewportSize({ width: 375, height: 812 });
    await screenshot(creator.page, 'storefront-editor-375');
    const bannerUrl = await editor.getByTestId('storefront-banner-preview').getAttribute('src');
    expect(bannerUrl).toMatch(/^\/storage\/banners\/\d+\/[a-f0-9]+\.webp$/);

    // What a crawler or a shared link gets: the page rendered on the server, with its Open Graph tags.
    const html = await (await fetch(`${baseUrl()}/profile/sofia`, { headers: { accept: 'text/html' } })).text();
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toContain('Northern light, prompts and prints');
    expect(root).toContain('href="https://portfolio.example/sofia"');
    expect(root.indexOf(second)).toBeGreaterThan(-1);
    expect(root.indexOf(second)).toBeLessThan(root.indexOf(first));
    expect(metaOf(html, 'og:description')).toBe('Northern light, prompts and prints');
    expect(metaOf(html, 'og:image')).toMatch(new RegExp(`${bannerUrl!.replace(/[.]/g, '\\.')}$`));
    expect(metaOf(html, 'og:url')).toMatch(/\/profile\/sofia$/);
    expect(metaOf(html, 'og:title')).toContain('@sofia');

    for (const width of [1280, 375]) {
      const visitor = await newContext({ width, height: width > 500 ? 900 : 812 });
      await open(visitor.page, `${baseUrl()}/profile/sofia`);
      await visitor.page.getByTestId('storefront-banner').waitFor();
      const featured = visitor.page.getByTestId('storefront-featured');
      await featured.waitFor();
      expect(await featured.getByRole('heading', { level: 3 }).allTextContents()).toEqual([second, first]);
      expect(await visitor.page.getByTestId('storefront-intro').textContent()).toContain('Northern light, prompts and prints');
      await expectAccessible(visitor.page, `the storefront at ${width} px`);
      await screenshot(visitor.page, `storefront-profile-${width}`);
      await visitor.context.close();
    }
    await creator.context.close();
  });
});
