import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, open, screenshot } from './browser';
import { apiCall, payWithTestCard, personContext, registerThroughForm, signIn } from './flows';
import { ownServer } from './server';

/**
 * Discount codes and sales in the browser (issue 34), on a server of its own (its codes and sales
 * must not change the shared server's prices): the demo creator makes a 20 % code on the Discounts
 * tab, a buyer applies it in the checkout and pays the discounted total; then an automatic sale
 * shows struck list prices on the creator's cards in the shop.
 */
const baseUrl = ownServer('discounts');
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const newContext = () => personContext(browser, baseUrl());

const call = (context: BrowserContext, method: 'GET' | 'POST', url: string, data?: unknown) => apiCall(context, baseUrl(), method, url, { data });

async function deposit(page: Page, amount: string) {
  await open(page, `${baseUrl()}/deposit/create`);
  await page.getByLabel('Amount').fill(amount);
  await payWithTestCard(page, baseUrl());
}

type CatalogItem = { id: number; title: string; authorNickname: string; price: number; product_type: string };

describe('discounts in the browser', () => {
  it('issue 34: a creator makes a 20 % code; a buyer uses it in the cart and pays 80 %', { timeout: 240_000 }, async () => {
    const catalog = (await (await fetch(`${baseUrl()}/api/products/catalog?limit=48&product_type=prompt&currency=EUR`)).json()) as { payload: CatalogItem[] };
    const work = catalog.payload.find((p) => p.authorNickname === 'sofia')!;
    expect(work).toBeDefined();

    const creator = await newContext();
    await signIn(creator.page, 'seller@example.com', baseUrl());
    await open(creator.page, `${baseUrl()}/dashboard/discounts`);
    await creator.page.getByRole('button', { name: 'New discount' }).click();
    const dialog = creator.page.getByTestId('discount-dialog');
    await dialog.getByLabel('Code', { exact: true }).fill('e2e-twenty');
    await dialog.getByLabel('Value', { exact: true }).fill('20');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const row = creator.page.getByTestId('discount-E2E-TWENTY');
    await row.waitFor();
    expect(await row.textContent()).toContain('20 % off');
    await expectAccessible(creator.page, 'the Discounts tab');
    await screenshot(creator.page, 'discounts-tab');

    const buyer = await newContext();
    await registerThroughForm(buyer.page, { name: 'Nora', surname: 'Lima', emailPrefix: 'discount.buyer', phonePrefix: '91' }, baseUrl());
    await deposit(buyer.page, String(Math.ceil(work.price) + 5));
    expect((await call(buyer.context, 'POST', '/api/cart/items', { product_id: work.id, product_type: 'prompt' })).status).toBe(200);
    await open(buyer.page, `${baseUrl()}/checkout`);
    await buyer.page.getByLabel('Discount code').fill('not-a-code');
    await buyer.page.getByRole('button', { name: 'Apply' }).click();
    await buyer.page.getByText('The discount code NOT-A-CODE does not exist.').waitFor();
    await buyer.page.getByLabel('Discount code').fill('e2e-twenty');
    await buyer.page.getByRole('button', { name: 'Apply' }).click();
    await buyer.page.getByTestId('discount-applied').waitFor();
    expect(await buyer.page.getByTestId('discount-applied').textContent()).toContain('Code E2E-TWENTY');
    await screenshot(buyer.page, 'discounts-checkout');
    await buyer.page.getByRole('button', { name: /from balance$/ }).click();
    await buyer.page.waitForURL(`${baseUrl()}/dashboard/orders`);

    const history = (await call(buyer.context, 'GET', '/api/purchase/history?currency=EUR')).body!.payload as {
      amount: number;
      discounts?: { code: string; list_price: number }[];
    }[];
    const discounted = Math.round(work.price * 100) - Math.floor((Math.round(work.price * 100) * 20) / 100);
    expect(Math.round(history[0]!.amount * 100)).toBe(Math.max(50, discounted));
    expect(history[0]!.discounts).toEqual([expect.objectContaining({ code: 'E2E-TWENTY', list_price: work.price })]);
    await creator.context.close();
    await buyer.context.close();
  });

  it('issue 34: an automatic sale shows struck list prices and its end in the shop', { timeout: 120_000 }, async () => {
    const creator = await newContext();
    await signIn(creator.page, 'seller@example.com', baseUrl());
    const ends = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const made = await call(creator.context, 'POST', '/api/seller/discounts', { code: 'E2E-SALE', kind: 'percent', value: 30, automatic: true, ends_at: ends });
    expect(made.status).toBe(200);

    const visitor = await newContext();
    await open(visitor.page, `${baseUrl()}/products`);
    const sale = visitor.page.getByTestId('product-card').filter({ has: visitor.page.getByTestId('sale-price') });
    await sale.first().waitFor();
    expect(await sale.first().locator('del').count()).toBe(1);
    await screenshot(visitor.page, 'discounts-sale-cards');
    // The product page says when the sale ends.
    await sale.first().getByRole('link').first().click();
    await visitor.page.getByTestId('sale-ends').waitFor();
    expect(await visitor.page.getByTestId('sale-ends').textContent()).toContain('Sale ends');
    await expectAccessible(visitor.page, 'a product on sale');
    await creator.context.close();
    await visitor.context.close();
  });
});
