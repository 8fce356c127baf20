import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, open, screenshot } from './browser';
import { addFunds, registerThroughForm, signIn } from './flows';

/**
 * The sell side in Debian's Chromium, through the app's own screens: a creator offers a work, staff
 * counter it in the back office, the creator accepts and is paid out by card (or declines), staff
 * see the payout and publish the product, a buyer finds it in the shop and buys it, and both the
 * creator and staff see the sale. The machine running this is shared and slow: every wait is on a
 * visible outcome, with generous time limits, never a fixed sleep.
 */

const WAIT = 60_000;
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** A fresh browser (its own cookies) for one person, with the cookie banner answered. */
async function personPage(width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'cookie_consent', value: 'essential', url: baseUrl() }]);
  context.setDefaultTimeout(WAIT);
  const page = await context.newPage();
  page.on('dialog', (d) => {
    throw new Error(`unexpected browser dialog: ${d.message()}`);
  });
  return page;
}

/** A small real PNG, made here, so the server's byte check and preview run on a genuine image. */
function png(colour: string) {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** A unique title and price for this run, so the rows found are this run's and no earlier one's. */
function runTag() {
  return Date.now().toString(36).slice(-6);
}

/** The seller's offer row in My projects. */
const offerRow = (page: Page, title: string) => page.getByTestId('offer').filter({ hasText: title });

/** My projects → Create new offer → the form filled in → sent; the new row shows Pending. */
async function createOffer(page: Page, o: { title: string; price: string; colour: string; style: string }) {
  await open(page, `${baseUrl()}/dashboard`);
  await page.getByRole('button', { name: 'Create new offer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an offer' });
  await dialog.getByLabel('Title').fill(o.title);
  await dialog.getByLabel('Description').fill('A quiet harbour before sunrise, painted for the e2e test.');
  await dialog.getByLabel('Category').selectOption({ index: 1 });
  await dialog.getByLabel('Price (€)').fill(o.price);
  await dialog.getByLabel(o.style, { exact: true }).check();
  await dialog.locator('input[type="file"]').setInputFiles({ name: `${o.title}.png`, mimeType: 'image/png', buffer: await png(o.colour) });
  await dialog.getByText(`${o.title}.png`).waitFor();
  // A buyout: staff make an offer and Atelier pays the creator (a listing, the first choice, is sold under their name).
  await dialog.getByRole('radio', { name: /Sell it to Atelier/ }).check();
  await dialog.getByRole('button', { name: 'Send offer' }).click();
  const sent = page.getByRole('dialog', { name: 'Your offer successfully sent' });
  await sent.getByText('We will contact you by e-mail within 3 business days').waitFor();
  await sent.getByRole('button', { name: 'Close', exact: true }).last().click();
  await sent.waitFor({ state: 'detached' });
  const row = offerRow(page, o.title);
  await row.getByText('Pending', { exact: true }).waitFor();
  // The preview made from the PNG is shown as the row's thumbnail.
  await expect.poll(() => row.locator('img.offer-thumb').evaluate((img: { naturalWidth: number }) => img.naturalWidth), { timeout: WAIT }).toBeGreaterThan(0);
}

/** Staff: the pending offer in /admin, countered with a price and a note. */
async function counterOffer(admin: Page, title: string, price: string, note: string) {
  await open(admin, `${baseUrl()}/admin`);
  const card = admin.getByRole('article', { name: title });
  await card.getByText('Pending', { exact: true }).first().waitFor();
  await card.getByLabel('Our price (EUR)').fill(price);
  await card.getByLabel('Note to the creator').fill(note);
  await card.getByRole('button', { name: 'Send counter-offer' }).click();
  await admin.getByText(`Your offer for “${title}” is sent to the creator.`).waitFor();
  // It leaves the pending queue.
  await card.waitFor({ state: 'detached' });
}

/** The seller opens the countered offer from My projects and sees our price and the note. */
async function openCounterOffer(seller: Page, title: string, price: string, note: string) {
  await open(seller, `${baseUrl()}/dashboard`);
  const row = offerRow(seller, title);
  await row.getByText('Offer', { exact: true }).waitFor();
  await row.getByRole('button', { name: `View ${title}` }).click();
  const details = seller.getByRole('dialog', { name: 'Offer details' });
  await details.getByTestId('service-price').getByText(price).waitFor();
  await details.getByText(`We would like to buy your work for €${price}`).waitFor();
  await details.getByText(note).waitFor();
  return details;
}

describe('offers in the browser', () => {
  it('a creator offers an image, staff counter it, the creator accepts and is paid by card, staff publish it, a buyer buys it, and both sides see the sale', async () => {
    const started = Date.now();
    const tag = runTag();
    const title = `Harbour dawn ${tag}`;
    const counter = `${17 + (Date.now() % 7)}.35`;
    // Dearer than the seed's cheap images, which commerce.e2e.ts picks from the same catalogue.
    const listPrice = `${32 + (Date.now() % 5)}.45`;
    const seller = await personPage();
    const admin = await personPage();
    await signIn(seller, 'seller@example.com');
    await signIn(admin, 'admin@example.com');

    // The create dialog's five client checks, in the SPEC's order, each under its field.
    await open(seller, `${baseUrl()}/dashboard`);
    await seller.getByRole('heading', { name: 'My projects' }).waitFor();
    const sellerName = (await seller.getByRole('heading', { level: 1 }).textContent())!.trim();
    expect(sellerName).not.toBe('');
    await seller.getByRole('button', { name: 'Create new offer' }).click();
    const dialog = seller.getByRole('dialog', { name: 'Create an offer' });
    const send = dialog.getByRole('button', { name: 'Send offer' });
    await send.click();
    await dialog.getByText('Please enter a title.').waitFor();
    await screenshot(seller, 'offers-create-errors');
    await seller.setViewportSize({ width: 375, height: 812 });
    await screenshot(seller, 'offers-create-errors-mobile', { fullPage: false });
    await seller.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByLabel('Title').fill(title);
    await send.click();
    await dialog.getByText('Please select a category.').waitFor();
    await dialog.getByLabel('Category').selectOption({ index: 1 });
    await dialog.getByLabel('Price (€)').fill('0');
    await send.click();
    await dialog.getByText('Please enter a valid price.').waitFor();
    await dialog.getByLabel('Price (€)').fill('25');
    await send.click();
    await dialog.getByText('Please upload a file.').waitFor();
    // A file of a type not allowed is refused by its name before anything is sent.
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await dialog.getByText('File type not supported').waitFor();
    await dialog.locator('input[type="file"]').setInputFiles({ name: `${title}.png`, mimeType: 'image/png', buffer: await png('#3a6ea5') });
    await dialog.getByText(`${title}.png`).waitFor();
    await send.click();
    await dialog.getByText('Please select at least one style.').waitFor();
    await dialog.getByLabel('Minimalism', { exact: true }).check();
    await dialog.getByRole('radio', { name: /Sell it to Atelier/ }).check();
    await send.click();
    const sent = seller.getByRole('dialog', { name: 'Your offer successfully sent' });
    await sent.getByText('We will contact you by e-mail within 3 business days').waitFor();
    await sent.getByRole('button', { name: 'Close', exact: true }).last().click();
    const row = offerRow(seller, title);
    await row.getByText('Pending', { exact: true }).waitFor();
    await expect.poll(() => row.locator('img.offer-thumb').evaluate((img: { naturalWidth: number }) => img.naturalWidth), { timeout: WAIT }).toBeGreaterThan(0);
    expect(await row.locator('time').textContent()).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
    await row.getByText('#Minimalism').waitFor();
    await row.getByText('25.00').waitFor();
    // The error toasts of the checks above go by themselves before the list is photographed.
    await expect.poll(() => seller.locator('.toast').count(), { timeout: WAIT }).toBe(0);
    await screenshot(seller, 'offers-my-projects');
    await seller.setViewportSize({ width: 375, height: 812 });
    await screenshot(seller, 'offers-my-projects-mobile');
    await seller.setViewportSize({ width: 1280, height: 900 });

    // Staff see it in the review queue with its creator and file, and counter it.
    await open(admin, `${baseUrl()}/admin`);
    const card = admin.getByRole('article', { name: title });
    await card.getByText('(seller@example.com)').waitFor();
    await card.getByRole('link', { name: `Download ${title}.png` }).waitFor();
    await screenshot(admin, 'offers-admin-review');
    await admin.setViewportSize({ width: 375, height: 812 });
    await screenshot(admin, 'offers-admin-review-mobile');
    await admin.setViewportSize({ width: 1280, height: 900 });
    const note = `We can pay ${counter} € for it.`;
    await counterOffer(admin, title, counter, note);

    // The creator accepts, gives contact and card details, and the deal completes.
    const details = await openCounterOffer(seller, title, counter, note);
    await details.getByRole('button', { name: 'Accept' }).click();
    const contact = seller.getByRole('dialog', { name: 'Contact details' });
    await contact.getByLabel('First name').fill('Sam');
    await contact.getByLabel('Last name').fill('Seller');
    await contact.getByLabel('E-mail').fill('seller@example.com');
    await contact.getByLabel('Phone').fill('+351912345678');
    await contact.getByLabel('Address').fill('Rua das Flores 12');
    await contact.getByLabel('City').fill('Lisboa');
    await contact.getByLabel('Post code').fill('1200-195');
    await contact.getByLabel('Country').selectOption({ label: 'Portugal' });
    await contact.getByRole('radio', { name: 'Credit Card' }).check();
    await contact.getByRole('button', { name: 'Continue' }).click();
    const payment = seller.getByRole('dialog', { name: 'Payment details · Credit Card' });
    await payment.getByText(`You receive €${counter}`).waitFor();
    expect(await payment.getByLabel('Cardholder name').inputValue()).toBe('Sam Seller');
    // A number that fails Luhn is refused before it leaves the browser.
    await payment.getByLabel('Card number').fill('4242424242424241');
    await payment.getByLabel('Expiry month').fill('12');
    await payment.getByLabel('Expiry year').fill(String(new Date().getFullYear() + 2));
    await payment.getByLabel('I agree to the terms and conditions').check();
    await payment.getByRole('button', { name: 'Request payout' }).click();
    await payment.getByText('Please enter a valid card number').waitFor();
    await payment.getByLabel('Card number').fill('4242424242424242');
    expect(await payment.getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    await payment.getByRole('button', { name: 'Request payout' }).click();
    const completed = seller.getByRole('dialog', { name: 'Deal is completed' });
    await completed.getByText('You will receive your funds within 3-5 business days to your card.').waitFor();
    await screenshot(seller, 'offers-deal-completed');
    await completed.getByRole('button', { name: 'Close', exact: true }).last().click();
    // The sandbox settles the card payout after its delay; My projects keeps asking until it is Paid.
    await row.getByText('Paid', { exact: true }).waitFor();
    expect(await row.locator('[data-status]').getAttribute('data-tone')).toBe('green');

    // Staff see the payout: paid, to the masked card, for our price.
    await open(admin, `${baseUrl()}/admin/payouts`);
    await admin.getByRole('heading', { name: 'Payouts' }).waitFor();
    await admin.getByLabel('Status').selectOption({ label: 'Paid' });
    const payout = admin
      .getByRole('row')
      .filter({ hasText: `€${counter}` })
      .filter({ hasText: '•••• 4242' });
    await payout.getByText('Paid', { exact: true }).waitFor();
    expect(await payout.count()).toBe(1);
    await screenshot(admin, 'offers-admin-payouts');

    // Staff set the list price and publish the product made from the offer.
    await open(admin, `${baseUrl()}/admin`);
    await admin.getByLabel('Status').selectOption({ label: 'Paid' });
    const accepted = admin.getByRole('article', { name: title });
    const publish = accepted.getByRole('form', { name: 'Publish the product' });
    await publish.getByText('Unlisted', { exact: true }).waitFor();
    await publish.getByLabel('List price (EUR)').fill(listPrice);
    await publish.getByLabel('Tags').fill('harbour, dawn');
    await publish.getByRole('button', { name: 'Save and publish' }).click();
    await admin.getByText(`“${title}” is published.`).waitFor();
    await publish.getByText('Published', { exact: true }).waitFor();
    await screenshot(admin, 'offers-admin-published');

    // A new buyer adds funds, finds the work in the shop by its title and buys it.
    const buyer = await personPage();
    const buyerEmail = await registerThroughForm(buyer, { name: 'Nora', surname: 'Quist', emailPrefix: 'offer.buyer', phonePrefix: '93' });
    await addFunds(buyer, baseUrl(), 50);
    await open(buyer, `${baseUrl()}/products`);
    await buyer.getByTestId('shop-search').fill(title);
    // The count is this search's own (the shop's earlier answer stays up while the next loads).
    await buyer.getByTestId('result-count').getByText(`1 result for “${title}”`, { exact: true }).waitFor();
    const hit = buyer.getByTestId('product-grid').getByRole('link').filter({ hasText: title });
    await hit.waitFor();
    expect(await buyer.getByTestId('product-grid').getByRole('link').count()).toBe(1);
    await hit.getByText(listPrice).waitFor();
    // The creator stays the work's author in the shop.
    await hit.getByText(`by ${sellerName}`).waitFor();
    await screenshot(buyer, 'offers-shop-search');
    await hit.click();
    await buyer.waitForURL(/\/products\//);
    await buyer.getByRole('heading', { name: title }).waitFor();
    await buyer.getByRole('button', { name: 'Buy now' }).click();
    const confirm = buyer.getByRole('dialog', { name: 'Confirm your purchase' });
    await confirm.getByRole('button', { name: `Pay €${listPrice}` }).click();
    await buyer.getByText(`Thank you! ${title} is yours.`).waitFor();
    await buyer.getByTestId('owned').getByText('You own this').waitFor();

    // The creator's view: the offer is Paid and its details say the deal is completed.
    await open(seller, `${baseUrl()}/dashboard`);
    await row.getByText('Paid', { exact: true }).waitFor();
    await row.getByRole('button', { name: `View ${title}` }).click();
    await seller.getByRole('dialog', { name: 'Offer details' }).getByText('Deal is completed. The payout has been sent.').waitFor();
    await screenshot(seller, 'offers-my-projects-paid');

    // Staff's view: the buyer's order of this work, and the sale in the journal as platform revenue.
    await open(admin, `${baseUrl()}/admin/users`);
    await admin.getByLabel('E-mail, nickname, name or id').fill(buyerEmail);
    await admin.getByRole('button', { name: 'Search' }).click();
    const who = admin.getByRole('button', { name: new RegExp(buyerEmail.replace(/\./g, '\\.')) });
    const nickname = ((await who.textContent()) ?? '').match(/@(\S+)/)?.[1];
    expect(nickname).toBeTruthy();
    await who.click();
    const user = admin.getByRole('article', { name: `@${nickname}` });
    await user
      .getByRole('listitem')
      .filter({ hasText: title })
      .filter({ hasText: `€${listPrice}` })
      .filter({ hasText: 'success' })
      .waitFor();
    await screenshot(admin, 'offers-admin-buyer');
    await open(admin, `${baseUrl()}/admin/money`);
    const filters = admin.getByRole('form', { name: 'Journal filters' });
    await filters.getByLabel('Reason').fill('purchase');
    await filters.getByRole('button', { name: 'Filter' }).click();
    const sale = admin
      .getByRole('row')
      .filter({ hasText: `@${nickname}: -€${listPrice}` })
      // Sales credit one of the platform's revenue accounts (platform:revenue, platform:revenue:1 …), chosen by the buyer.
      .filter({ hasText: new RegExp(`platform:revenue(:\\d+)?: €${listPrice.replace('.', '\\.')}`) });
    await sale.waitFor();
    expect(await sale.count()).toBe(1);
    await screenshot(admin, 'offers-admin-journal');

    await Promise.all([seller.context().close(), admin.context().close(), buyer.context().close()]);
    console.info(`offer → payout → publish → sale took ${Math.round((Date.now() - started) / 1000)} s`);
  }, 420_000);

  it('a creator declines the counter-offer: the deal is declined and both sides see it', async () => {
    const tag = runTag();
    const title = `Quiet dunes ${tag}`;
    const counter = '9.50';
    const note = 'Our best price for this one.';
    const seller = await personPage();
    const admin = await personPage();
    await signIn(seller, 'seller@example.com');
    await signIn(admin, 'admin@example.com');

    await createOffer(seller, { title, price: '30', colour: '#c2a46b', style: 'Vintage/Retro' });
    await counterOffer(admin, title, counter, note);

    const details = await openCounterOffer(seller, title, counter, note);
    await details.getByRole('button', { name: 'Decline' }).click();
    const declined = seller.getByRole('dialog', { name: 'Deal is declined' });
    await declined.getByText('You declined our offer. The deal is closed.').waitFor();
    await screenshot(seller, 'offers-deal-declined');
    await declined.getByRole('button', { name: 'Close', exact: true }).last().click();
    const row = offerRow(seller, title);
    await row.getByText('Declined by you', { exact: true }).waitFor();
    expect(await row.locator('[data-status]').getAttribute('data-tone')).toBe('red');
    // Opened again, a declined offer has nothing left to answer.
    await row.getByRole('button', { name: `View ${title}` }).click();
    const again = seller.getByRole('dialog', { name: 'Offer details' });
    await again.getByText('Declined by you', { exact: true }).waitFor();
    expect(await again.getByRole('button', { name: 'Accept' }).count()).toBe(0);

    // Staff find it under 'Declined by the creator', with no product to publish.
    await open(admin, `${baseUrl()}/admin`);
    await admin.getByLabel('Status').selectOption({ label: 'Declined by the creator' });
    const card: Locator = admin.getByRole('article', { name: title });
    await card.getByText('Declined by the creator', { exact: true }).first().waitFor();
    expect(await card.getByRole('form', { name: 'Publish the product' }).count()).toBe(0);
    await Promise.all([seller.context().close(), admin.context().close()]);
  }, 300_000);
});
