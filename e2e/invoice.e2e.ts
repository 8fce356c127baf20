import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../apps/server/test/pdf';
import { launch, open, screenshot } from './browser';
import { payWithTestCard, registerThroughForm } from './flows';
import { ownServer } from './server';

// Its own server: the shared one allows ten sign-ups an hour from one address, and other files use them.
const baseUrl = ownServer('invoice');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/**
 * Issue 33 in the browser: a buyer who pays a deposit with a German card sees German VAT in the buy
 * dialog, buys, and downloads the invoice from Order history: a PDF with its number and the VAT.
 */
describe('invoices in the browser', () => {
  it('a buyer with a German card sees the VAT before buying and downloads the invoice', { timeout: 240_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.addCookies([{ name: 'cookie_consent', value: 'essential', url: baseUrl() }]);
    const page = await context.newPage();
    await registerThroughForm(page, { name: 'Lena', surname: 'Weber', emailPrefix: 'invoice.buyer', phonePrefix: '96' }, baseUrl());

    const listed = (
      (await (await fetch(`${baseUrl()}/api/products/catalog?product_type=image&limit=6&sort=price~asc`)).json()) as {
        payload: { slug: string; title: string; price: number }[];
      }
    ).payload;
    const product = listed.find((p) => p.price > 0)!;

    // Add funds with Stripe's German test card: the sandbox's BIN table says Germany.
    await open(page, `${baseUrl()}/deposit/create`);
    await page.getByLabel('Amount').fill(String(Math.ceil(product.price) + 5));
    await payWithTestCard(page, baseUrl(), '4000 0027 6000 0016');
    await page.getByRole('heading', { name: 'Thank You for Your Payment!' }).waitFor();

    await open(page, `${baseUrl()}/products/${product.slug}`);
    await page.getByRole('button', { name: 'Buy now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your purchase' });
    await dialog.getByTestId('tax-vat').getByText('VAT 19 %').waitFor();
    await dialog.getByTestId('tax-total').getByText(product.price.toFixed(2)).waitFor();
    await screenshot(page, 'buy-dialog-vat');
    await dialog.getByRole('button', { name: `Pay €${product.price.toFixed(2)}` }).click();
    await page.getByText(`Thank you! ${product.title} is yours.`).waitFor();

    await open(page, `${baseUrl()}/dashboard/orders`);
    const link = page.getByTestId('order-invoice').first();
    await link.waitFor();
    // The number is issued after the sale commits (by the receipt job, or at the latest by this first download).
    await screenshot(page, 'order-history-invoice');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const bytes = await readFile(await download.path());
    const number = /^invoice-(\d{4}-\d{6})\.pdf$/.exec(download.suggestedFilename())?.[1];
    expect(number).toBeTruthy();
    // Order history then names the invoice by its number.
    await open(page, `${baseUrl()}/dashboard/orders`);
    await page.getByTestId('order-invoice').first().getByText(`${number}`).waitFor();
    const text = pdfText(bytes);
    expect(text).toContain(`Invoice ${number}`);
    expect(text).toContain('Country: DE');
    expect(text).toContain('19 %');
    await context.close();
  });
});
