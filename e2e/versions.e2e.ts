import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, open, screenshot } from './browser';
import { addFunds, approveListing, newCreatorListing, personContext, signIn } from './flows';
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

const personPage = async () => (await personContext(browser, base(), { acceptDownloads: true, timeout: WAIT })).page;

const png = (colour: string) =>
  sharp({ create: { width: 480, height: 360, channels: 3, background: colour } })
    .png()
    .toBuffer();

describe('product updates in the browser (issue 34)', () => {
  it('a creator ships a new version of a sold work and the buyer downloads it from Order history', { timeout: 300_000 }, async () => {
    const title = `Pier lanterns ${Date.now()}`;

    // The creator signs up and offers a listing at 20 €; staff approve it in the back office.
    const creator = await personPage();
    const who = { name: 'Lena', surname: 'Voss', emailPrefix: 'e2e.versions', phonePrefix: '93' };
    await newCreatorListing(creator, base(), who, { title, price: '20.00', file: { name: 'pier.png', buffer: await png('#1a4a9c') } });
    const staff = await personPage();
    await signIn(staff, 'admin@example.com', base());
    await approveListing(staff, base(), title, '20.00');

    // A buyer adds funds and buys it.
    const buyer = await personPage();
    await signIn(buyer, 'buyer@example.com', base());
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
