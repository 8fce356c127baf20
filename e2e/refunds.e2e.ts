import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, open, screenshot } from './browser';
import { registerThroughForm } from './flows';
import { ownServer } from './server';

/**
 * Buyer protection in the browser (issue 19), on its own server (its sign-up does not count against
 * the shared server's 10 an hour): a buyer buys a creator's work, the creator withdraws everything,
 * the buyer asks for a refund from Order history, staff refund it from the back office; the buyer's
 * balance is back, the download answers 410, and the creator's receivable shows on the money screen.
 */
const baseUrl = ownServer('refunds');
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

async function signIn(page: Page, email: string) {
  await open(page, `${baseUrl()}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('atelier-demo');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** A JSON call with the context's cookies and XSRF header, as the app makes it. */
async function call(context: BrowserContext, method: 'GET' | 'POST' | 'PATCH', url: string, data?: unknown) {
  const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const request: APIRequestContext = context.request;
  const res = await request.fetch(`${baseUrl()}${url}`, {
    method,
    data,
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), Accept: 'application/json' },
  });
  return { status: res.status(), body: (await res.json().catch(() => null)) as { payload?: unknown; message?: string } | null };
}

async function deposit(page: Page, amount: string) {
  await open(page, `${baseUrl()}/deposit/create`);
  await page.getByLabel('Amount').fill(amount);
  await page.getByRole('radio', { name: 'Card (test payment)' }).check();
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL(/\/api\/payments\/sandbox\/pay\//);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Month').fill('12');
  await page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2));
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL(`${baseUrl()}/success-payment`);
}

const balanceOf = async (context: BrowserContext) =>
  ((await call(context, 'GET', '/api/balance?currency=EUR')).body!.payload as { amount_minor: number }).amount_minor;
const earningsOf = async (context: BrowserContext) =>
  (await call(context, 'GET', '/api/earnings?currency=EUR')).body!.payload as { available: { amount_minor: number; amount: number } };

describe('refunds in the browser', () => {
  it('issue 19: a buyer asks for a refund, staff refund it; the balance is back, the download 410, the receivable shows', { timeout: 240_000 }, async () => {
    const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const adminPage = await admin.newPage();
    await signIn(adminPage, 'admin@example.com');
    // Earnings are available at once, and any amount may be withdrawn.
    expect((await call(admin, 'PATCH', '/api/admin/settings', { earnings_clearing_days: 0, withdrawal_min: 1 })).status).toBe(200);

    // A work by the demo creator (sofia), not a pack.
    const catalog = (await (await fetch(`${baseUrl()}/api/products/catalog?limit=48&product_type=prompt`)).json()) as {
      payload: { id: number; title: string; authorNickname: string; price: number }[];
    };
    const product = catalog.payload.find((p) => p.authorNickname === 'sofia')!;
    expect(product).toBeDefined();

    const buyer = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const buyerPage = await buyer.newPage();
    await registerThroughForm(buyerPage, { name: 'Rita', surname: 'Sousa', emailPrefix: 'refund.buyer', phonePrefix: '93' }, baseUrl());
    await deposit(buyerPage, String(Math.ceil(product.price) + 5));
    const before = await balanceOf(buyer);
    const bought = await call(buyer, 'POST', '/api/purchase/prompt', { prompt_id: product.id });
    expect(bought.status).toBe(200);
    const order = (bought.body!.payload as { order: { id: number; items: { info: { doc_url_orig: string } }[] } }).order;
    expect((await buyer.request.get(`${baseUrl()}${order.items[0]!.info.doc_url_orig}`)).status()).toBe(200);

    // The creator withdraws everything they have available (a bank transfer staff mark paid).
    const seller = await browser.newContext();
    await signIn(await seller.newPage(), 'seller@example.com');
    await expect.poll(async () => (await earningsOf(seller)).available.amount_minor, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    const available = (await earningsOf(seller)).available;
    const withdrawn = await call(seller, 'POST', '/api/earnings/withdraw', {
      method: 'sepa',
      amount: (available.amount_minor / 100).toFixed(2),
      first_name: 'Sofia',
      last_name: 'Marin',
      email: 'seller@example.com',
      phone: '+351912345678',
      address: 'Rua Augusta 1',
      city: 'Lisboa',
      post_code: '1100-048',
      country: 620,
      currency: 'EUR',
      account_number: 'DE89370400440532013000',
      recipient_full_name: 'Sofia Marin',
    });
    expect(withdrawn.status).toBe(200);
    const payoutId = (withdrawn.body!.payload as { withdrawal: { id: number } }).withdrawal.id;
    expect((await call(admin, 'POST', `/api/admin/payouts/${payoutId}/complete`, { outcome: 'paid', reference: `BANK-${payoutId}` })).status).toBe(200);
    expect((await earningsOf(seller)).available.amount_minor).toBe(0);

    // The buyer asks for a refund from Order history.
    await open(buyerPage, `${baseUrl()}/dashboard/orders`);
    const item = buyerPage.locator('li.order-item', { hasText: product.title });
    await item.getByRole('button', { name: 'Request a refund' }).click();
    const dialog = buyerPage.getByRole('dialog', { name: 'Request a refund' });
    await dialog.getByLabel('Reason').selectOption('not_as_described');
    await dialog.getByLabel('Message').fill('The prompt does not produce what the page shows.');
    await screenshot(buyerPage, 'refund-request-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await item.getByText('Refund requested').waitFor();
    await screenshot(buyerPage, 'refund-requested-orders');

    // Staff refund it from the back office.
    await open(adminPage, `${baseUrl()}/admin/refunds`);
    const card = adminPage.getByTestId('refund-request').filter({ hasText: product.title });
    await card.getByText('The prompt does not produce what the page shows.').waitFor();
    await screenshot(adminPage, 'admin-refunds-queue');
    await card.getByLabel('Note for both parties').fill('Refunded: the result differs from the preview.');
    await card.getByRole('button', { name: 'Refund' }).click();
    await adminPage.getByText('The buyer has been refunded.').waitFor();

    // The buyer's money is back and the file is gone; the history says Refunded.
    expect(await balanceOf(buyer)).toBe(before);
    expect((await buyer.request.get(`${baseUrl()}${order.items[0]!.info.doc_url_orig}`)).status()).toBe(410);
    await open(buyerPage, `${baseUrl()}/dashboard/orders`);
    await buyerPage.locator('li.order-item', { hasText: product.title }).getByText('Refunded', { exact: true }).first().waitFor();

    // The creator owes what they had withdrawn: the money screen lists the receivable.
    await open(adminPage, `${baseUrl()}/admin/money`);
    const row = adminPage.getByTestId('receivable').filter({ hasText: '@sofia' });
    await row.waitFor();
    // The reconciliation tile on the same screen stays green after all of it.
    await adminPage.locator('.reconciliation-tile[data-state="green"]').waitFor();
    await screenshot(adminPage, 'admin-money-receivables');
  });
});
