import { readFile } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, open, screenshot } from './browser';
import { registerThroughForm } from './flows';
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

async function newContext(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await context.addCookies([{ name: 'cookie_consent', value: 'essential', url: baseUrl() }]);
  context.setDefaultTimeout(60_000);
  return { context, page: await context.newPage() };
}

async function signIn(page: Page, email: string) {
  await open(page, `${baseUrl()}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('atelier-demo');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** A call with the context's cookies and XSRF header, as the app makes it. */
async function call(context: BrowserContext, method: 'POST' | 'PATCH', url: string, body: { data?: unknown; multipart?: Record<string, unknown> }) {
  const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await context.request.fetch(`${baseUrl()}${url}`, {
    method,
    ...body,
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), Accept: 'application/json' },
  } as Parameters<BrowserContext['request']['fetch']>[1]);
  return { status: res.status(), body: (await res.json().catch(() => null)) as { payload?: { id: number; product_id?: number } } | null };
}

/** The entries of a ZIP, read through its central directory. */
function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const entries = new Map<string, Buffer>();
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const body = zip.subarray(start, start + size);
    entries.set(name, method === 8 ? inflateRawSync(body) : Buffer.from(body));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

describe('licence tiers in the browser', () => {
  it('issue 34: a buyer picks the extended licence and finds LICENCE.txt in the download', { timeout: 300_000 }, async () => {
    const title = `Licensed harbour ${Date.now().toString(36).slice(-5)}`;
    // The demo creator offers a work as a listing; staff approve it; the creator prices its licences.
    const creator = await newContext();
    await signIn(creator.page, 'seller@example.com');
    const image = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#2a6f97' } })
      .png()
      .toBuffer();
    const categories = (await (await fetch(`${baseUrl()}/api/categories`)).json()) as { payload: { id: number }[] };
    const offered = await call(creator.context, 'POST', '/api/offer/create', {
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
    await signIn(staff.page, 'admin@example.com');
    expect((await call(staff.context, 'POST', `/api/admin/offers/${offerId}/approve`, {})).status).toBe(200);
    const priced = await call(creator.context, 'PATCH', `/api/offer/${offerId}/listing`, { data: { price: 20, personal_price: 8, extended_price: 60 } });
    expect(priced.status).toBe(200);

    // A new buyer with money.
    const buyer = await newContext();
    await registerThroughForm(buyer.page, { name: 'Marta', surname: 'Lopes', emailPrefix: 'licence.buyer', phonePrefix: '93' }, baseUrl());
    await open(buyer.page, `${baseUrl()}/deposit/create`);
    await buyer.page.getByLabel('Amount').fill('80');
    await buyer.page.getByRole('radio', { name: 'Card (test payment)' }).check();
    await buyer.page.getByRole('button', { name: 'Continue to payment' }).click();
    await buyer.page.waitForURL(/\/api\/payments\/sandbox\/pay\//);
    await buyer.page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyer.page.getByLabel('Month').fill('12');
    await buyer.page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2));
    await buyer.page.getByLabel('CVC').fill('123');
    await buyer.page.getByRole('button', { name: /^Pay / }).click();
    await buyer.page.waitForURL(`${baseUrl()}/success-payment`);

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
