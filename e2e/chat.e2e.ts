import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, open, screenshot } from './browser';
import { addFunds, balanceMinor, registerThroughForm, signIn } from './flows';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** SPEC §2: the buyer sees the creator's move without reloading; the issue asks for it within 2 s. */
const LIVE = { timeout: 2000 };

async function newContext(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'cookie_consent', value: 'essential', url: baseUrl() }]);
  const page = await context.newPage();
  page.on('dialog', (d) => {
    throw new Error(`unexpected browser dialog: ${d.message()}`);
  });
  return { context, page };
}

/** The sandbox's card form (the hosted page, or the widget's frame). */
async function fillCard(form: Page | ReturnType<Page['frameLocator']>, card: string) {
  await form.getByLabel('Card number').fill(card);
  await form.getByLabel('Month').fill('12');
  await form.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2));
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: /^Pay / }).click();
}

/**
 * Both screen widths of the chat tab, for a person to look at; nothing sticks out sideways at 375 px,
 * where an open conversation is the whole screen (so that shot is the screen, not the page behind it).
 */
async function shoot(page: Page, name: string, opts: { fullPage?: boolean } = {}) {
  await screenshot(page, `${name}-1280`, opts);
  await page.setViewportSize({ width: 375, height: 812 });
  const [scrollWidth, width] = (await page.evaluate('[document.scrollingElement.scrollWidth, window.innerWidth]')) as [number, number];
  expect(scrollWidth).toBeLessThanOrEqual(width);
  await screenshot(page, `${name}-375`, { fullPage: false });
  await page.setViewportSize({ width: 1280, height: 900 });
}

const conversation = (page: Page) => page.getByTestId('conversation');
const lastBubble = (page: Page) => conversation(page).getByTestId('chat-message').last();

describe('chat and commissions in the browser', () => {
  it('buyer and creator agree a price live, the buyer unlocks from the balance and by card, the bell and badges follow', { timeout: 240_000 }, async () => {
    const seller = await newContext();
    const buyer = await newContext();
    await signIn(seller.page, 'seller@example.com');
    await registerThroughForm(buyer.page, { name: 'Ines', surname: 'Carvalho', emailPrefix: 'chat.buyer', phonePrefix: '91' });
    await addFunds(buyer.page, baseUrl(), 25);
    expect(await balanceMinor(buyer.context)).toBe(2500);

    // 1. The buyer opens one of the creator's products and contacts the creator.
    const catalog = (await (await fetch(`${baseUrl()}/api/products/catalog?limit=48`)).json()) as {
      payload: { slug: string; title: string; authorNickname: string }[];
    };
    const product = catalog.payload.find((p) => p.authorNickname === 'sofia')!;
    await open(buyer.page, `${baseUrl()}/products/${product.slug}`);
    await buyer.page.getByRole('button', { name: 'Contact the creator' }).click();
    await buyer.page.waitForURL(/\/dashboard\/chat\?chat=\d+$/);
    const chatId = Number(new URL(buyer.page.url()).searchParams.get('chat'));
    await conversation(buyer.page).getByText(product.title).waitFor();
    await conversation(buyer.page)
      .getByRole('link', { name: /Sofia Marin/ })
      .waitFor();

    // The creator's list has the chat with its unread badge, cleared once it is opened.
    await open(seller.page, `${baseUrl()}/dashboard/chat`);
    const sellerItem = seller.page.locator(`a[href="/dashboard/chat?chat=${chatId}"]`);
    await sellerItem.getByText('Ines Carvalho').waitFor();
    await sellerItem.click();
    await conversation(seller.page).getByText(product.title).waitFor();
    await sellerItem.getByTestId('chat-unread').waitFor({ state: 'detached' });

    // 2. The creator proposes a price; the buyer sees it within 2 s without reloading.
    await seller.page.getByLabel('Your price').fill('30');
    await seller.page.getByRole('button', { name: 'Propose price' }).click();
    await lastBubble(buyer.page).getByText('Price offered: €30.00').waitFor(LIVE);
    await buyer.page.getByTestId('chat-status').getByText('Price offered').waitFor(LIVE);
    // The deal waits on the buyer: the busy text says so (issue 18); only the buyer's input waits.
    await buyer.page.getByTestId('deal-controls').getByText('Waiting for your answer').waitFor();
    expect(await buyer.page.getByText('Artist is working on your image...').count()).toBe(0);
    expect(await buyer.page.getByRole('textbox', { name: 'Message' }).isDisabled()).toBe(true);
    expect(await seller.page.getByRole('textbox', { name: 'Message' }).isDisabled()).toBe(false);
    await shoot(buyer.page, 'chat-buyer-price-offered');
    await shoot(seller.page, 'chat-creator-deal-waiting');

    // 3. The buyer negotiates once, then accepts the new price.
    await buyer.page.getByRole('button', { name: 'Negotiate Price' }).click();
    await lastBubble(seller.page).getByText('Asking for a better price').waitFor(LIVE);
    await seller.page.getByLabel('Your price').fill('25');
    await seller.page.getByRole('button', { name: 'Propose price' }).click();
    await lastBubble(buyer.page).getByText('Price offered: €25.00').waitFor(LIVE);
    await buyer.page.getByRole('button', { name: 'Accept Price' }).click();
    await buyer.page.getByText('Price accepted. Artist is creating your image...').waitFor();
    await buyer.page.getByTestId('deal-controls').getByText('Artist is working on your image...').waitFor();
    await seller.page.getByTestId('chat-status').getByText('Creating artwork...').waitFor(LIVE);

    // 4. The creator sends the finished image locked; the buyer sees it blurred with its price.
    const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    await seller.page.getByLabel('Finished image').setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: image });
    // The image goes at the agreed price, shown and not editable (issue 17).
    expect(await seller.page.getByLabel('Price').inputValue()).toBe('€25.00');
    expect(await seller.page.getByLabel('Price').isEditable()).toBe(false);
    await seller.page.getByRole('button', { name: 'Send locked image' }).click();
    // Bug 12: its creator sees the delivered image itself, not blurred.
    const own = seller.page.getByTestId('own-locked-image');
    await own.getByText('Locked · €25.00').waitFor();
    const ownFilter = await own
      .locator('img')
      // In the page: this file is typed without the DOM library, so its globals are reached through globalThis.
      .evaluate((img) => (globalThis as unknown as { getComputedStyle(e: unknown): { filter: string } }).getComputedStyle(img).filter);
    expect(ownFilter).toBe('none');
    await shoot(seller.page, 'chat-creator-locked-sent');
    const locked = buyer.page.getByTestId('locked-image');
    await locked.getByText('€25.00').waitFor(LIVE);
    const filter = await locked
      .locator('img')
      // In the page: this file is typed without the DOM library, so its globals are reached through globalThis.
      .evaluate((img) => (globalThis as unknown as { getComputedStyle(e: unknown): { filter: string } }).getComputedStyle(img).filter);
    expect(filter).toContain('blur');
    await buyer.page.getByTestId('chat-status').getByText('Waiting for payment').waitFor();
    await shoot(buyer.page, 'chat-buyer-locked');

    // 5a. The buyer unlocks it from the balance: the modal shows the amount, the image opens in a new tab.
    await locked.click();
    const modal = buyer.page.getByRole('dialog', { name: 'Unlock this image' });
    await modal.getByTestId('unlock-amount').getByText('€25.00').waitFor();
    await screenshot(buyer.page, 'chat-unlock-modal-1280');
    await modal.getByRole('button', { name: 'Unlock' }).click();
    await buyer.page.getByText('Image unlocked').first().waitFor();
    const opened = buyer.page.getByTestId('unlocked-image');
    await opened.waitFor();
    expect(await opened.getAttribute('target')).toBe('_blank');
    const original = await buyer.context.request.get(`${baseUrl()}${await opened.getAttribute('href')}`);
    expect(original.status()).toBe(200);
    expect(Buffer.compare(await original.body(), image)).toBe(0);
    expect(await balanceMinor(buyer.context)).toBe(0);
    await lastBubble(seller.page).getByText('Image unlocked').waitFor(LIVE);

    // 5b. A deal either side leaves: the creator offers, the buyer cancels it (issue 17).
    await seller.page.getByLabel('Your price').fill('40');
    await seller.page.getByRole('button', { name: 'Propose price' }).click();
    await buyer.page.getByRole('button', { name: 'Accept Price' }).waitFor(LIVE);
    await buyer.page.getByRole('button', { name: 'Cancel deal' }).click();
    await buyer.page.getByTestId('cancel-deal-confirm').waitFor();
    await shoot(buyer.page, 'chat-cancel-deal');
    await buyer.page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await lastBubble(seller.page).getByText('Deal cancelled').waitFor(LIVE);
    await buyer.page.getByTestId('chat-status').waitFor({ state: 'detached' });
    expect(await buyer.page.getByRole('textbox', { name: 'Message' }).isDisabled()).toBe(false);

    // 5c. A second commission with the balance emptied: the card widget pays it inside the chat,
    // 3-D Secure included, and the chat stays where it is (issue 18 bug 5).
    await seller.page.getByLabel('Your price').fill('10');
    await seller.page.getByRole('button', { name: 'Propose price' }).click();
    await buyer.page.getByRole('button', { name: 'Accept Price' }).click(LIVE);
    await seller.page.getByLabel('Finished image').setInputFiles({ name: 'second.png', mimeType: 'image/png', buffer: image }, LIVE);
    await seller.page.getByRole('button', { name: 'Send locked image' }).click();
    const second = buyer.page.getByTestId('locked-image');
    await second.getByText('€10.00').waitFor(LIVE);
    await second.click();
    await modal.getByRole('button', { name: 'Unlock' }).click();
    await modal.getByText('Your balance does not cover the price: pay it by card.').waitFor();
    const frame = modal.frameLocator('iframe[title="Test card payment"]');
    await frame.getByLabel('Card number').waitFor();
    await frame.getByRole('heading', { name: 'Card payment' }).waitFor();
    expect(await modal.textContent()).not.toMatch(/deposit/i);
    await shoot(buyer.page, 'chat-unlock-widget', { fullPage: false });
    await fillCard(frame, '4000 0000 0000 3220');
    await frame.getByRole('heading', { name: '3-D Secure authentication' }).waitFor({ timeout: 20_000 });
    await screenshot(buyer.page, 'chat-unlock-3ds-1280', { fullPage: false });
    await frame.getByRole('button', { name: 'Complete' }).click();
    // Paid: the dialog closes with a notice and the chat refreshes in place.
    await buyer.page.locator('.toast').getByText('Image unlocked').waitFor({ timeout: 20_000 });
    await modal.waitFor({ state: 'detached' });
    expect(buyer.page.url()).toBe(`${baseUrl()}/dashboard/chat?chat=${chatId}`);
    await buyer.page.getByTestId('unlocked-image').nth(1).waitFor();
    expect(await balanceMinor(buyer.context)).toBe(0);
    await buyer.page.getByTestId('chat-status').waitFor({ state: 'detached' });

    // 6. The bell shows the notifications; the chat's unread badge clears when the chat is opened.
    await open(seller.page, `${baseUrl()}/dashboard`);
    const bell = seller.page.getByTestId('notifications-button');
    await seller.page.getByTestId('notifications-badge').waitFor();
    await bell.click();
    const dropdown = seller.page.getByTestId('notifications-dropdown');
    await dropdown.getByText('Ines Carvalho unlocked your image').first().waitFor();
    await screenshot(seller.page, 'notifications-dropdown-1280');
    await dropdown.getByRole('button', { name: 'Mark all as read' }).click();
    await seller.page.getByTestId('notifications-badge').waitFor({ state: 'detached' });
    await seller.page.keyboard.press('Escape');
    await dropdown.waitFor({ state: 'detached' });

    await buyer.page.getByRole('textbox', { name: 'Message' }).fill('Thank you, it is perfect!');
    await buyer.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await seller.page.getByTestId('notifications-badge').waitFor(LIVE);
    await bell.click();
    await seller.page
      .getByTestId('notifications-dropdown')
      .getByRole('link', { name: /New message from Ines Carvalho/ })
      .click();
    await seller.page.waitForURL(`${baseUrl()}/dashboard/chat?chat=${chatId}`);
    await lastBubble(seller.page).getByText('Thank you, it is perfect!').waitFor();
    await sellerItem.getByTestId('chat-unread').waitFor({ state: 'detached' });
    await shoot(seller.page, 'chat-creator');

    // Logging out closes the live stream: the page stops holding /api/events open.
    const streamOpened = seller.page.waitForRequest((r) => r.url().endsWith('/api/events'));
    await open(seller.page, `${baseUrl()}/dashboard`);
    await streamOpened;
    const streamEnded = new Promise<void>((resolve) => {
      const done = (r: { url(): string }) => r.url().endsWith('/api/events') && resolve();
      seller.page.on('requestfailed', done);
      seller.page.on('requestfinished', done);
    });
    await seller.page.getByRole('button', { name: 'Log out' }).first().click();
    await seller.page.waitForURL(`${baseUrl()}/`);
    await streamEnded;
    await seller.context.close();
    await buyer.context.close();
  });

  it('mobile chat: a conversation opens at the newest message, full-screen, with the input visible; on a desktop the input is on the first screen', {
    timeout: 120_000,
  }, async () => {
    // The demo buyer writes to the demo creator: enough messages to fill more than a phone's screen.
    const buyer = await newContext();
    await signIn(buyer.page, 'buyer@example.com');
    await buyer.context.request.get(`${baseUrl()}/sanctum/csrf-cookie`);
    const xsrf = (await buyer.context.cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
    const post = (path: string, data: unknown) =>
      buyer.context.request.post(`${baseUrl()}${path}`, { data, headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), Accept: 'application/json' } });
    const catalog = (await (await fetch(`${baseUrl()}/api/products/catalog?limit=48`)).json()) as { payload: { id: number; authorNickname: string }[] };
    const opened = await post('/api/chat', { product_id: catalog.payload.find((p) => p.authorNickname === 'sofia')!.id });
    expect(opened.status()).toBe(200);
    const chatId = ((await opened.json()) as { payload: { id: number } }).payload.id;
    for (let i = 1; i <= 24; i++)
      expect((await post(`/api/chat/${chatId}/messages`, { message: `Question number ${i} about the commission` })).status()).toBe(200);

    await buyer.page.setViewportSize({ width: 375, height: 812 });
    await open(buyer.page, `${baseUrl()}/dashboard/chat?chat=${chatId}`);
    const newest = lastBubble(buyer.page).getByText('Question number 24 about the commission');
    await newest.waitFor();
    const input = buyer.page.getByRole('textbox', { name: 'Message' });
    const inView = async (target: ReturnType<Page['locator']>, height: number) => {
      const box = await target.boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= height;
    };
    // At the newest message, the input in view, and the conversation is the whole screen: the profile
    // header and the balance card are not above it.
    await expect.poll(() => inView(newest, 812)).toBe(true);
    expect(await inView(input, 812)).toBe(true);
    const box = (await conversation(buyer.page).boundingBox())!;
    expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, 375, 812]);
    const coveredBy = (selector: string) =>
      buyer.page.evaluate((sel) => {
        // In the page: this file is typed without the DOM library, so its globals are reached through globalThis.
        const d = globalThis as unknown as {
          document: {
            querySelector(s: string): { getBoundingClientRect(): { x: number; y: number; width: number; height: number } } | null;
            elementFromPoint(x: number, y: number): { closest(s: string): unknown } | null;
          };
        };
        const el = d.document.querySelector(sel);
        if (!el) return true;
        const r = el.getBoundingClientRect();
        const top = d.document.elementFromPoint(r.x + r.width / 2, r.y + Math.min(r.height / 2, 10));
        return Boolean(top?.closest('[data-testid="conversation"]'));
      }, selector);
    expect(await coveredBy('.dashboard-header')).toBe(true);
    expect(await coveredBy('.balance-card')).toBe(true);
    await screenshot(buyer.page, 'chat-mobile-newest-375', { fullPage: false });
    // Typing and sending works from there, and the newest message stays in view.
    await input.fill('One more thing');
    await input.press('Enter');
    await lastBubble(buyer.page).getByText('One more thing').waitFor();
    await expect.poll(() => inView(lastBubble(buyer.page), 812)).toBe(true);
    // Back to the list: the page is a page again.
    await buyer.page.getByRole('link', { name: 'Back to your chats' }).click();
    await buyer.page.locator('[data-testid="chat-tab"][data-screen="list"]').waitFor();

    // A desktop: the conversation's input sits on the first screen, without scrolling.
    await buyer.page.setViewportSize({ width: 1280, height: 800 });
    await open(buyer.page, `${baseUrl()}/dashboard/chat?chat=${chatId}`);
    await lastBubble(buyer.page).getByText('One more thing').waitFor();
    expect(await buyer.page.evaluate('window.scrollY')).toBe(0);
    expect(await inView(input, 800)).toBe(true);
    await expect.poll(() => inView(lastBubble(buyer.page), 800)).toBe(true);
    await screenshot(buyer.page, 'chat-desktop-first-screen-1280', { fullPage: false });
    await buyer.context.close();
  });
});
