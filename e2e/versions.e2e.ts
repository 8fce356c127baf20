import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, open, screenshot } from './browser';
import { addFunds, registerThroughForm } from './flows';
import { ownServer } from './server';

/**
 * Issue 34 in Debian's Chromium: a creator's listing sells, the creator ships a new version from My
 * projects (a file and what changed), and the buyer finds the version in Order history and downloads
 * the new file. Its own server, so its sign-up does not count against the shared server's.
 */
const WAIT = 60_000;
const base = ownServer('versions');
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

async function personPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await context.addCookies([{ name: 'cookie_consent', value: 'essential', url: base() }]);
  context.setDefaultTimeout(WAIT);
  return context.newPage();
}

async function signIn(page: Page, email: string) {
  await open(page, `${base()}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('atelier-demo');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** The XSRF header a page of the app would send, for calls made with the context's own cookies. */
async function xsrf(context: BrowserContext) {
  const token = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'x-xsrf-token': decodeURIComponent(token), accept: 'application/json' };
}

const png = (colour: string) =>
  sharp({ create: { width: 480, height: 360, channels: 3, background: colour } })
    .png()
    .toBuffer();

describe('product updates in the browser (issue 34)', () => {
  it('a creator ships a new version of a sold work and the buyer downloads it from Order history', { timeout: 300_000 }, async () => {
    const title = `Pier lanterns ${Date.now()}`;

    // The creator signs up and offers a listing at 20 € (set up through the API: the offer form has its own e2e).
    const creator = await personPage();
    await registerThroughForm(creator, { name: 'Lena', surname: 'Voss', emailPrefix: 'e2e.versions', phonePrefix: '93' }, base());
    const details = await creator.context().request.put(`${base()}/api/user/seller-details`, {
      headers: await xsrf(creator.context()),
      data: {
        kind: 'individual',
        legal_name: 'Lena Voss',
        date_of_birth: '1988-03-14',
        address: { line1: 'Hafenstraße 3', city: 'Hamburg', post_code: '20459', country: 'DE' },
        tax_id: '12345678901',
      },
    });
    expect(details.status()).toBe(200);
    const created = await creator.context().request.post(`${base()}/api/offer/create`, {
      headers: await xsrf(creator.context()),
      multipart: {
        title,
        description: 'Lanterns on the pier.',
        category_id: '1',
        price: '20.00',
        deal_type: 'listing',
        confirm: 'true',
        keywords: 'Impressionism',
        media: { name: 'pier.png', mimeType: 'image/png', buffer: await png('#1a4a9c') },
      },
    });
    expect(created.status()).toBe(200);

    // Staff approve the listing in the back office.
    const staff = await personPage();
    await signIn(staff, 'admin@example.com');
    await open(staff, `${base()}/admin`);
    await staff.getByRole('article', { name: title }).getByRole('button', { name: 'Approve and list at €20.00' }).click();
    await staff.getByText(`“${title}” is listed in the shop.`).waitFor();

    // A buyer adds funds and buys it.
    const buyer = await personPage();
    await signIn(buyer, 'buyer@example.com');
    await addFunds(buyer, base(), 20);
    await open(buyer, `${base()}/products`);
    await buyer.getByTestId('shop-search').fill(title);
    await buyer.getByTestId('product-grid').getByRole('link').filter({ hasText: title }).first().click();
    await buyer.getByRole('heading', { name: title }).waitFor();
    await buyer.getByRole('button', { name: 'Buy now' }).click();
    await buyer.getByRole('dialog', { name: 'Confirm your purchase' }).getByRole('button', { name: 'Pay €20.00' }).click();
    await buyer.getByText(`Thank you! ${title} is yours.`).waitFor();

    // The creator ships version 2 from My projects.
    const newFile = await png('#c0392b');
    await open(creator, `${base()}/dashboard`);
    await creator.getByRole('button', { name: `View ${title}` }).click();
    const dialog = creator.getByRole('dialog', { name: 'Offer details' });
    const form = dialog.getByRole('region', { name: 'Upload new version' });
    await form.getByLabel('New file').setInputFiles({ name: 'pier-v2.png', mimeType: 'image/png', buffer: newFile });
    await form.getByLabel('What changed').fill('Warmer lantern light.');
    await form.getByRole('button', { name: 'Upload new version' }).click();
    await creator.getByText('The new version is published: your buyers are being told.').waitFor();
    await screenshot(creator, 'versions-upload-1280', { fullPage: false });

    // The buyer is told (the bell, after the job) and finds the version in Order history.
    await expect
      .poll(
        async () => {
          const res = await buyer.context().request.get(`${base()}/api/notifications`);
          const list = ((await res.json()) as { payload: { kind: string; text: string }[] }).payload;
          return list.some((n) => n.kind === 'product_updated' && n.text.includes(title));
        },
        { timeout: WAIT },
      )
      .toBe(true);
    await open(buyer, `${base()}/dashboard/orders`);
    const order = buyer.getByTestId('order').filter({ hasText: title }).first();
    await order.getByText('Versions', { exact: true }).click();
    const versions = order.getByRole('list', { name: 'Versions' });
    await versions.getByText('Warmer lantern light.').waitFor();
    await versions.getByText('First release').waitFor();
    await screenshot(buyer, 'versions-order-history-1280');

    const [download] = await Promise.all([buyer.waitForEvent('download'), order.getByRole('button', { name: 'Download' }).click()]);
    const bytes = await readFile(await download.path());
    expect(bytes.equals(newFile)).toBe(true);
    await creator.context().close();
    await staff.context().close();
    await buyer.context().close();
  });
});
