import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, open, screenshot } from './browser';
import { addFunds, apiCall, registerThroughForm, signIn } from './flows';
import { ownServer } from './server';

/**
 * Buyer protection in the browser (issue 19), on its own server (its sign-up does not count against
 * the shared server's 10 an hour): a buyer buys a creator's work, the creator withdraws everything,
 * the buyer asks for a refund from Order history, staff refund it from the back office; the buyer's
 * balance is back, the download answers 410, and the creator's receivable shows on the money screen.
 * Issue 30: while a request is open the creator's Earnings tab shows the amount on hold (not
 * withdrawable); after a refund of money already withdrawn it shows the debt, and deleting the account
 * is refused with the sentence that says so.
 */
const baseUrl = ownServer('refunds');
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const call = (context: BrowserContext, method: 'GET' | 'POST' | 'PATCH', url: string, data?: unknown) => apiCall(context, baseUrl(), method, url, { data });

const balanceOf = async (context: BrowserContext) =>
  ((await call(context, 'GET', '/api/balance?currency=EUR')).body!.payload as { amount_minor: number }).amount_minor;
type Money = { amount_minor: number; amount: number };
const earningsOf = async (context: BrowserContext) =>
  (await call(context, 'GET', '/api/earnings?currency=EUR')).body!.payload as { available: Money; held: Money; owed: Money };
/** The demo creator's bank transfer details, for withdrawals. */
const sofiasBank = {
  method: 'sepa',
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
};
const euros = (minor: number) => `€${(minor / 100).toFixed(2)}`;

/** The demo creator's (sofia's) prompts in the shop, cheapest first. */
async function sofiasPrompts() {
  const catalog = (await (await fetch(`${baseUrl()}/api/products/catalog?limit=48&product_type=prompt`)).json()) as {
    payload: { id: number; title: string; authorNickname: string; price: number }[];
  };
  return catalog.payload.filter((p) => p.authorNickname === 'sofia');
}

describe('refunds in the browser', () => {
  it("issue 30: an open refund request holds the creator's share on the Earnings tab; rejected, it is available again", { timeout: 240_000 }, async () => {
    const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(await admin.newPage(), 'admin@example.com', baseUrl());
    expect((await call(admin, 'PATCH', '/api/admin/settings', { earnings_clearing_days: 0, withdrawal_min: 1 })).status).toBe(200);
    // Another of sofia's prompts than the next test's.
    const product = (await sofiasPrompts())[1]!;
    expect(product).toBeDefined();

    const buyer = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const buyerPage = await buyer.newPage();
    await registerThroughForm(buyerPage, { name: 'Joana', surname: 'Reis', emailPrefix: 'hold.buyer', phonePrefix: '92' }, baseUrl());
    await addFunds(buyerPage, baseUrl(), Math.ceil(product.price) + 5);
    const bought = await call(buyer, 'POST', '/api/purchase/prompt', { prompt_id: product.id });
    expect(bought.status).toBe(200);
    const orderId = (bought.body!.payload as { order: { id: number } }).order.id;

    const seller = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const sellerPage = await seller.newPage();
    await signIn(sellerPage, 'seller@example.com', baseUrl());
    await expect.poll(async () => (await earningsOf(seller)).available.amount_minor, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    const before = await earningsOf(seller);

    const asked = await call(buyer, 'POST', `/api/orders/${orderId}/refund-request`, { reason: 'broken_file', message: 'The prompt text is cut off.' });
    expect(asked.status).toBe(200);
    const during = await earningsOf(seller);
    // The share (the price less the commission) moved from available to held.
    expect(during.held.amount_minor).toBeGreaterThan(0);
    expect(during.available.amount_minor).toBe(before.available.amount_minor - during.held.amount_minor);

    for (const width of [1280, 375]) {
      await sellerPage.setViewportSize({ width, height: 900 });
      await open(sellerPage, `${baseUrl()}/dashboard/earnings`);
      const held = sellerPage.getByTestId('earnings-held');
      await held.getByText('On hold for a refund request').waitFor();
      await held.getByText(euros(during.held.amount_minor)).waitFor();
      await sellerPage.getByTestId('earnings-available').getByText(euros(during.available.amount_minor)).waitFor();
      await screenshot(sellerPage, `earnings-held-${width}`);
    }
    // The held share cannot be withdrawn: asking for more than what is available is refused.
    const tooMuch = await call(seller, 'POST', '/api/earnings/withdraw', {
      ...sofiasBank,
      amount: ((during.available.amount_minor + during.held.amount_minor) / 100).toFixed(2),
    });
    expect(tooMuch.status).toBe(422);

    // Staff reject the request: the hold ends and the share is available again.
    const queue = (await call(admin, 'GET', '/api/admin/refund-requests?status=open')).body!.payload as { id: number; order_id: number | null }[];
    const request = queue.find((r) => r.order_id === orderId)!;
    expect(
      (await call(admin, 'POST', `/api/admin/refund-requests/${request.id}/resolve`, { decision: 'reject', note: 'The full text is in the file.' })).status,
    ).toBe(200);
    await open(sellerPage, `${baseUrl()}/dashboard/earnings`);
    await sellerPage.getByTestId('earnings-available').getByText(euros(before.available.amount_minor)).waitFor();
    expect(await sellerPage.getByTestId('earnings-held').count()).toBe(0);
  });

  it('issue 19: a buyer asks for a refund, staff refund it; the balance is back, the download 410, the receivable shows', { timeout: 240_000 }, async () => {
    const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const adminPage = await admin.newPage();
    await signIn(adminPage, 'admin@example.com', baseUrl());
    // Earnings are available at once, and any amount may be withdrawn.
    expect((await call(admin, 'PATCH', '/api/admin/settings', { earnings_clearing_days: 0, withdrawal_min: 1 })).status).toBe(200);

    // A work by the demo creator (sofia), not a pack.
    const product = (await sofiasPrompts())[0]!;
    expect(product).toBeDefined();

    const buyer = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const buyerPage = await buyer.newPage();
    await registerThroughForm(buyerPage, { name: 'Rita', surname: 'Sousa', emailPrefix: 'refund.buyer', phonePrefix: '93' }, baseUrl());
    await addFunds(buyerPage, baseUrl(), Math.ceil(product.price) + 5);
    const before = await balanceOf(buyer);
    const bought = await call(buyer, 'POST', '/api/purchase/prompt', { prompt_id: product.id });
    expect(bought.status).toBe(200);
    const order = (bought.body!.payload as { order: { id: number; items: { info: { doc_url_orig: string } }[] } }).order;
    expect((await buyer.request.get(`${baseUrl()}${order.items[0]!.info.doc_url_orig}`)).status()).toBe(200);

    // The creator withdraws everything they have available (a bank transfer staff mark paid).
    const seller = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const sellerPage = await seller.newPage();
    await signIn(sellerPage, 'seller@example.com', baseUrl());
    await expect.poll(async () => (await earningsOf(seller)).available.amount_minor, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    const available = (await earningsOf(seller)).available;
    const withdrawn = await call(seller, 'POST', '/api/earnings/withdraw', {
      ...sofiasBank,
      amount: (available.amount_minor / 100).toFixed(2),
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

    // Issue 30: the creator sees the debt on the Earnings tab, and may not delete the account while it is owed.
    const owed = (await earningsOf(seller)).owed.amount_minor;
    expect(owed).toBeGreaterThan(0);
    for (const width of [1280, 375]) {
      await sellerPage.setViewportSize({ width, height: 900 });
      await open(sellerPage, `${baseUrl()}/dashboard/earnings`);
      const debt = sellerPage.getByTestId('earnings-owed');
      await debt.getByText('You owe').waitFor();
      await debt.getByText(euros(owed)).waitFor();
      await screenshot(sellerPage, `earnings-owed-${width}`);
    }
    await sellerPage.setViewportSize({ width: 1280, height: 900 });
    await open(sellerPage, `${baseUrl()}/dashboard/contact`);
    await sellerPage.getByRole('button', { name: 'Delete account' }).click();
    const confirm = sellerPage.getByRole('dialog', { name: 'Delete your account?' });
    await confirm.getByLabel('Password').fill('atelier-demo');
    await confirm.getByRole('button', { name: 'Delete my account' }).click();
    await confirm
      .getByText(`You owe ${euros(owed)} from refunds of works you had already been paid for.`, { exact: false })
      .first()
      .waitFor();
    await screenshot(sellerPage, 'delete-account-refused-owed');
    // Still signed in, still there.
    expect((await call(seller, 'GET', '/api/user/profile')).status).toBe(200);
  });
});
