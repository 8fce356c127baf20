import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzip } from '../apps/server/test/zip';
import { expectAccessible, launch, open, screenshot } from './browser';
import { apiCall, payWithTestCard, personContext, registerThroughForm, signIn } from './flows';
import { ownServer } from './server';

/**
 * Licence tiers in the browser (issue 34), on a server of its own (it signs a buyer up and lists a
 * work): the demo creator lists a work with a personal, commercial and extended licence, staff
 * approve it, and a buyer reads the extended licence's page, picks that licence in the buy dialog,
 * pays its price, and finds LICENCE.txt (naming them, the work, the licence and the order) in the download.
 */
const baseUrl = ownServer('licence');
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const newContext = () => personContext(browser, baseUrl(), { acceptDownloads: true, timeout: 60_000 });

describe('licence tiers in the browser', () => {
  it('issue 34: a buyer picks the extended licence and finds LICENCE.txt in the download', { timeout: 300_000 }, async () => {
    const title = `Licensed harbour ${Date.now().toString(36).slice(-5)}`;
    // The demo creator offers a work as a listing; staff approve it; the creator prices its licences.
    const creator = await newContext();
    await signIn(creator.page, 'seller@example.com', baseUrl());
    const image = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#2a6f97' } })
      .png()
      .toBuffer();
    const categories = (await (await fetch(`${baseUrl()}/api/categories`)).json()) as { payload: { id: number }[] };
    const offered = await apiCall<{ id: number }>(creator.context, baseUrl(), 'POST', '/api/offer/create', {
      multipart: {
        title,
        description: 'A harbour at dawn, for the licence test.',
        category_id: String(categories.payload[0]!.id),
        price: '20',
        confirm: 'true',
        keywords: 'Impressionism',
        deal_type: 'listing',
        media: { name: 'harbour.png', mimeType: 'image/png', buffer: image },
      },
    });
    expect(offered.status).toBe(200);
    const offerId = offered.body!.payload!.id;
    const staff = await newContext();
    await signIn(staff.page, 'admin@example.com', baseUrl());
    expect((await apiCall(staff.context, baseUrl(), 'POST', `/api/admin/offers/${offerId}/approve`)).status).toBe(200);
    const priced = await apiCall(creator.context, baseUrl(), 'PATCH', `/api/offer/${offerId}/listing`, {
      data: { price: 20, personal_price: 8, extended_price: 60 },
    });
    expect(priced.status).toBe(200);

    // A new buyer with money.
    const buyer = await newContext();
    await registerThroughForm(buyer.page, { name: 'Marta', surname: 'Lopes', emailPrefix: 'licence.buyer', phonePrefix: '93' }, baseUrl());
    await open(buyer.page, `${baseUrl()}/deposit/create`);
    await buyer.page.getByLabel('Amount').fill('80');
    await payWithTestCard(buyer.page, baseUrl());

    // The extended licence's page says what it permits.
    await open(buyer.page, `${baseUrl()}/licences/extended`);
    await buyer.page.getByRole('heading', { name: 'Extended licence', level: 1 }).waitFor();
    await buyer.page.getByText('Print the work on merchandise and print-on-demand products for sale, in any number.').waitFor();
    await expectAccessible(buyer.page, 'the extended licence page');
    await screenshot(buyer.page, 'licence-page');

    // The buyer finds the work, picks the extended licence and pays its price.
    const catalog = (await (await fetch(`${baseUrl()}/api/products/catalog?limit=48&product_type=image&sort=id~desc&currency=EUR`)).json()) as {
      payload: { slug: string; title: string }[];
    };
    const work = catalog.payload.find((p) => p.title === title)!;
    expect(work).toBeDefined();
    await open(buyer.page, `${baseUrl()}/products/${work.slug}`);
    await buyer.page.getByRole('button', { name: 'Buy now' }).click();
    const dialog = buyer.page.getByRole('dialog', { name: 'Confirm your purchase' });
    await dialog.getByRole('group', { name: 'Licence' }).waitFor();
    await dialog.getByRole('radio', { name: /Extended licence/ }).check();
    await dialog.getByTestId('buy-price').getByText('60.00', { exact: false }).waitFor();
    await expectAccessible(buyer.page, 'the buy dialog with its licences');
    await screenshot(buyer.page, 'buy-dialog-licences');
    await dialog.getByRole('button', { name: 'Pay €60.00' }).click();
    await buyer.page.getByText(`Thank you! ${title} is yours.`).waitFor();

    // The product page says which licence the buyer owns, and the ZIP download carries LICENCE.txt.
    await buyer.page.getByRole('link', { name: 'Your licence: Extended licence' }).waitFor();
    const [download] = await Promise.all([
      buyer.page.waitForEvent('download'),
      buyer.page.getByRole('button', { name: 'Download with LICENCE.txt (ZIP)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const entries = unzip(await readFile(await download.path()));
    expect([...entries.keys()].sort()).toEqual(['LICENCE.txt', expect.stringMatching(/\.png$/)].sort());
    const licence = entries.get('LICENCE.txt')!.toString('utf8');
    expect(licence).toContain('Licensee: Marta Lopes');
    expect(licence).toContain(`Work: ${title}`);
    expect(licence).toContain('Licence: Extended licence (extended)');
    const history = (await (await buyer.context.request.get(`${baseUrl()}/api/purchase/history`)).json()) as {
      payload: { id: number; amount: number; items: { licence_tier: string }[] }[];
    };
    expect(history.payload[0]).toMatchObject({ amount: 60, items: [{ licence_tier: 'extended' }] });
    expect(licence).toContain(`Order number: ${history.payload[0]!.id}`);
    await screenshot(buyer.page, 'owned-licence');
  });
});
