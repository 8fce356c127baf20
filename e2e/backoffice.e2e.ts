import type { Browser, BrowserContext } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, open, screenshot } from './browser';
import { signIn } from './flows';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** The seller's offer, sent as the create-offer dialog sends it (multipart, with the XSRF header). */
async function createOffer(context: BrowserContext, title: string) {
  const token = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const png = await sharp({ create: { width: 480, height: 360, channels: 3, background: '#2a6f97' } })
    .png()
    .toBuffer();
  const res = await context.request.post(`${baseUrl()}/api/offer/create`, {
    headers: { 'x-xsrf-token': decodeURIComponent(token), accept: 'application/json' },
    multipart: {
      title,
      description: 'Morning fog over the river.',
      category_id: '1',
      price: '42.50',
      confirm: 'true',
      keywords: 'Impressionism',
      media: { name: 'river.png', mimeType: 'image/png', buffer: png },
    },
  });
  expect(res.status()).toBe(200);
}

describe('the back office in the browser', () => {
  it('staff review a pending offer: the file, the creator, a counter-offer; anyone else sees 403', async () => {
    const title = `River fog ${Date.now()}`;
    const seller = await browser.newContext();
    await signIn(await seller.newPage(), 'seller@example.com');
    await createOffer(seller, title);

    // A buyer who opens /admin sees the forbidden page and no staff call is made.
    const buyer = await browser.newContext();
    const buyerPage = await buyer.newPage();
    await signIn(buyerPage, 'buyer@example.com');
    const staffCalls: string[] = [];
    buyerPage.on('request', (r) => {
      if (r.url().includes('/api/admin')) staffCalls.push(r.url());
    });
    await open(buyerPage, `${baseUrl()}/admin`);
    await buyerPage.getByText('403').waitFor();
    expect(staffCalls).toEqual([]);

    // The phone view first: the counter-offer below takes the offer out of the pending queue.
    for (const width of [375, 1280]) {
      const admin = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await admin.newPage();
      await signIn(page, 'admin@example.com');
      await open(page, `${baseUrl()}/admin`);
      const card = page.getByRole('article', { name: title });
      await card.waitFor();
      await expect(card.getByRole('link', { name: 'Download river.png' }).getAttribute('href')).resolves.toMatch(
        /^\/api\/admin\/offers\/\d+\/file\?expires=\d+&signature=[\w-]+$/,
      );
      await card.getByText('(seller@example.com)').waitFor();
      const consent = page.getByRole('button', { name: 'Accept all' });
      if (await consent.isVisible()) await consent.click();
      await screenshot(page, `admin-review-queue-${width}`);
      if (width === 375) {
        await admin.close();
        continue;
      }
      await card.getByLabel('Our price (EUR)').fill('38');
      await card.getByLabel('Note to the creator').fill('We would love to buy it.');
      await card.getByRole('button', { name: 'Send counter-offer' }).click();
      await page.getByText(`Your offer for “${title}” is sent to the creator.`).waitFor();
      // It leaves the pending queue and shows under "Offer sent" with its history.
      await card.waitFor({ state: 'detached' });
      await page.getByLabel('Status').selectOption('offer');
      const sent = page.getByRole('article', { name: title });
      await sent.getByText('€38.00').waitFor();
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('cell', { name: 'offer.counter' }).first().waitFor();
      await admin.close();
    }
  }, 150_000);
});
