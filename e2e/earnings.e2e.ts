import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, open, screenshot } from './browser';
import { addFunds, approveListing, codeAt, newCreatorListing, personContext, signIn } from './flows';
import { ownServer } from './server';

/**
 * Issue 19 in Debian's Chromium: a creator's listing sells, staff set the clearing period to 0 in the
 * back office, and the creator (with two-factor sign-in on) withdraws to the sandbox card from the
 * Earnings tab, confirms with a code when asked, and sees the withdrawal paid. Its own server, so the
 * sign-ups here do not count against the shared server's 10 an hour. Every wait is on a visible outcome.
 */
const WAIT = 60_000;
const base = ownServer('earnings');
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** A fresh browser (its own cookies) for one person, with the cookie banner answered. */
const personPage = async (width = 1280) => (await personContext(browser, base(), { width, timeout: WAIT })).page;

describe('creator earnings in the browser (issue 19)', () => {
  it('a listing sells, staff set the clearing period to 0, and the creator withdraws to the sandbox card after a step-up code and sees it paid', async () => {
    const title = `Harbour lights ${Date.now()}`;

    // The creator signs up (this browser's session never proves a second factor) and offers a listing at 30 €.
    const creator = await personPage();
    const image = await sharp({ create: { width: 480, height: 360, channels: 3, background: '#9c4a1a' } })
      .png()
      .toBuffer();
    const who = { name: 'Lena', surname: 'Voss', emailPrefix: 'e2e.earner', phonePrefix: '91' };
    const listed = await newCreatorListing(creator, base(), who, { title, price: '30.00', file: { name: 'harbour.png', buffer: image } });
    expect(listed.offer.deal_type).toBe('listing');
    const creatorEmail = listed.email;

    // On another device the creator turns two-factor sign-in on, as security.e2e.ts does.
    const phone = await personPage();
    await signIn(phone, creatorEmail, base(), 'amber-orchard-51');
    await open(phone, `${base()}/dashboard/security`);
    await phone.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await phone.getByTestId('totp-key').textContent())!.replace(/\s/g, '');
    await phone.getByLabel('Code from the app').fill(codeAt(secret));
    await phone.getByRole('button', { name: 'Turn on' }).click();
    await phone.getByRole('button', { name: 'I have saved them' }).click();
    await phone.getByText('Two-factor sign-in is on. Recovery codes left: 10.').waitFor();
    await phone.context().close();

    // Staff set the clearing period to 0 in the back office, and approve the listing as it is.
    const staff = await personPage();
    await signIn(staff, 'admin@example.com', base());
    await open(staff, `${base()}/admin/site`);
    const days = staff.getByLabel('Earnings clearing period (days)');
    await expect(days.inputValue()).resolves.toBe('7');
    await days.fill('0');
    await staff.getByRole('form', { name: 'Site settings' }).getByRole('button', { name: 'Save', exact: true }).click();
    await staff.getByText('Saved.').first().waitFor();
    await screenshot(staff, 'earnings-admin-settings-1280');
    await approveListing(staff, base(), title, '30.00');

    // A buyer adds funds, finds the work in the shop and buys it.
    const buyer = await personPage();
    await signIn(buyer, 'buyer@example.com', base());
    await addFunds(buyer, base(), 30);
    await open(buyer, `${base()}/products`);
    await buyer.getByTestId('shop-search').fill(title);
    await buyer.getByTestId('result-count').getByText(`1 result for “${title}”`, { exact: true }).waitFor();
    await buyer.getByTestId('product-grid').getByRole('link').filter({ hasText: title }).first().click();
    await buyer.getByRole('heading', { name: title }).waitFor();
    await buyer.getByRole('button', { name: 'Buy now' }).click();
    await buyer.getByRole('dialog', { name: 'Confirm your purchase' }).getByRole('button', { name: 'Pay €30.00' }).click();
    await buyer.getByText(`Thank you! ${title} is yours.`).waitFor();

    // My projects: the listing is live, with its price and Unlist; the create-offer dialog asks listing or buyout.
    for (const width of [1280, 375]) {
      await creator.setViewportSize({ width, height: 900 });
      await open(creator, `${base()}/dashboard`);
      await creator.getByRole('button', { name: `View ${title}` }).click();
      const details = creator.getByRole('dialog', { name: 'Offer details' });
      await details.getByText('Your work is listed in the shop. You earn your share of each sale.').waitFor();
      await details.getByRole('button', { name: 'Unlist' }).waitFor();
      await screenshot(creator, `earnings-listing-details-${width}`, { fullPage: false });
      await creator.keyboard.press('Escape');
      await creator.getByRole('button', { name: 'Create new offer' }).click();
      const dialog = creator.getByRole('dialog', { name: 'Create an offer' });
      await dialog.getByRole('radio', { name: /List it under my name/ }).waitFor();
      expect(await dialog.getByRole('radio', { name: /List it under my name/ }).isChecked()).toBe(true);
      await dialog.getByRole('radio', { name: /Sell it to Atelier \(buyout\)/ }).scrollIntoViewIfNeeded();
      await screenshot(creator, `earnings-create-offer-${width}`, { fullPage: false });
      await creator.keyboard.press('Escape');
    }
    await creator.setViewportSize({ width: 1280, height: 900 });

    // The creator's Earnings tab: 80% of 30 € is available at once (clearing 0), nothing pending.
    await open(creator, `${base()}/dashboard/earnings`);
    await creator.getByTestId('earnings-available').getByText('24.00', { exact: true }).waitFor();
    await creator.getByTestId('earnings-pending').getByText('Nothing is clearing right now.').waitFor();
    await creator.getByText('No withdrawals yet.').waitFor();
    await screenshot(creator, 'earnings-tab-1280');
    await creator.setViewportSize({ width: 375, height: 800 });
    await screenshot(creator, 'earnings-tab-375');
    await creator.getByRole('button', { name: 'Withdraw' }).click();
    await creator.getByRole('dialog', { name: 'Withdraw earnings' }).waitFor();
    await screenshot(creator, 'earnings-withdraw-375', { fullPage: false });
    await creator.keyboard.press('Escape');
    await creator.getByRole('dialog', { name: 'Withdraw earnings' }).waitFor({ state: 'detached' });
    await creator.setViewportSize({ width: 1280, height: 900 });

    await creator.getByRole('button', { name: 'Withdraw' }).click();
    const amount = creator.getByRole('dialog', { name: 'Withdraw earnings' });
    await expect(amount.getByLabel('Amount (€)').inputValue()).resolves.toBe('24.00');
    await amount.getByRole('button', { name: 'Continue' }).click();
    const contact = creator.getByRole('dialog', { name: 'Contact details' });
    await expect(contact.getByLabel('First name').inputValue()).resolves.toBe('Lena');
    await contact.getByLabel('Address').fill('Rua Augusta 1');
    await contact.getByLabel('City').fill('Lisbon');
    await contact.getByLabel('Post code').fill('1100-048');
    await contact.getByLabel('Country').selectOption({ label: 'Portugal' });
    await contact.getByRole('radio', { name: 'Credit Card' }).check();
    await screenshot(creator, 'earnings-withdraw-contact-1280', { fullPage: false });
    await contact.getByRole('button', { name: 'Continue' }).click();
    const card = creator.getByRole('dialog', { name: 'Payment details · Credit Card' });
    await card.getByText('You receive €24.00').waitFor();
    await card.getByLabel('Card number').fill('4242 4242 4242 4242');
    await card.getByLabel('Expiry month').fill('12');
    await card.getByLabel('Expiry year').fill(String(new Date().getFullYear() + 1));
    await card.getByLabel('I agree to the terms and conditions').check();
    await card.getByRole('button', { name: 'Withdraw' }).click();

    // Money leaving: the server wants a fresh second factor, and the step-up dialog asks for it.
    const stepUp = creator.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUp.waitFor();
    await screenshot(creator, 'earnings-step-up-1280', { fullPage: false });
    await stepUp.getByLabel('Code from the app').fill(codeAt(secret, 1));
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    const sent = creator.getByRole('dialog', { name: 'Your withdrawal is on its way' });
    await sent.getByText('You will receive your funds within 3-5 business days to your card.').waitFor();
    await sent.getByRole('button', { name: 'Close' }).first().click();

    // The sandbox settles the card payout after a second; the history turns Paid without a reload.
    const row = creator.getByTestId('withdrawal-row').first();
    await row.getByText('Paid', { exact: true }).waitFor();
    await row.getByText('visa •••• 4242').waitFor();
    await creator.getByTestId('earnings-withdrawn').getByText('24.00', { exact: true }).waitFor();
    await creator.getByTestId('earnings-available').getByText('0.00', { exact: true }).waitFor();
    expect(await creator.getByTestId('withdrawal-row').count()).toBe(1);
    await screenshot(creator, 'earnings-tab-paid-1280');
    await creator.setViewportSize({ width: 375, height: 800 });
    await screenshot(creator, 'earnings-tab-paid-375');
  });
});
