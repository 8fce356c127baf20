import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, open, screenshot } from './browser';
import { signIn, typePhone } from './flows';

/** What a new user trips over (issue 12), each checked in Chromium as a person would meet it. */

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A visitor; `consented` visitors already chose cookies, so the panel is not there. */
async function visitor(opts: { width?: number; height?: number; consented?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 } });
  if (opts.consented !== false) await context.addCookies([{ name: 'cookie_consent', value: 'essential', url: baseUrl() }]);
  return { context, page: await context.newPage() };
}

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${baseUrl()}${path}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { payload: T }).payload;
}

const title = (page: Page) => page.evaluate('document.title') as Promise<string>;

/**
 * Logs out with `click` and checks the visitor ends on the home page: the server has ended the
 * session, the home page shows, and the address is still home (no guard sent them on to login).
 */
async function loggedOutHome(page: Page, click: () => Promise<void>) {
  const loggedOut = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/logout');
  await click();
  expect((await loggedOut).status()).toBe(200);
  await page.waitForURL(`${baseUrl()}/`);
  await page.getByRole('heading', { level: 1, name: 'Step Inside' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
}

/** Waits for the tab title a page sets (after its data came), up to 5 s. */
const titleOf = (page: Page, expected: string) => expect.poll(() => title(page), { timeout: 5000 }).toBe(expected);

describe('1. log out', () => {
  it('from the dashboard button and from the sidebar on a dashboard page goes home', async () => {
    const { context, page } = await visitor();
    await signIn(page, 'buyer@example.com');
    await loggedOutHome(page, () => page.getByRole('button', { name: 'Log out' }).click());

    await signIn(page, 'buyer@example.com');
    await open(page, `${baseUrl()}/dashboard/orders`);
    await page.getByRole('button', { name: /menu/i }).first().click();
    await loggedOutHome(page, () =>
      page
        .getByRole('dialog')
        .getByRole('button', { name: /log out/i })
        .click(),
    );
    await context.close();
  });
});

describe('2. pagination', () => {
  it('Next, clicked at the bottom of the shop, shows page 2 from the top of the results', async () => {
    const { context, page } = await visitor();
    await open(page, `${baseUrl()}/products`);
    await page.getByTestId('product-card').first().waitFor();
    const next = page.getByRole('link', { name: 'Next' });
    await next.scrollIntoViewIfNeeded();
    expect((await page.evaluate('window.scrollY')) as number).toBeGreaterThan(300);
    await next.click();
    await page.waitForURL(/page=2/);
    await page.getByRole('link', { name: 'Page 2' }).and(page.locator('[aria-current="page"]')).waitFor();
    const grid = (await page.getByTestId('product-grid').boundingBox())!;
    // The results start on screen, below the sticky header, and the heading of the list is close by.
    expect(grid.y).toBeGreaterThanOrEqual(0);
    expect(grid.y).toBeLessThan(800 / 2);
    expect((await page.evaluate('window.scrollY')) as number).toBeLessThan(300);
    await context.close();
  });
});

describe('3. cookie panel', () => {
  it('at 1280x800 never covers the register button, the terms box or the first products', async () => {
    const { context, page } = await visitor({ consented: false });
    await open(page, `${baseUrl()}/register`);
    const panel = page.getByTestId('cookie-consent');
    await panel.waitFor();
    await screenshot(page, 'polish-register-cookie-1280');
    const panelBox = (await panel.boundingBox())!;
    const button = (await page.getByRole('button', { name: 'Register' }).boundingBox())!;
    const terms = (await page.getByRole('checkbox').boundingBox())!;
    expect(overlaps(panelBox, button)).toBe(false);
    expect(overlaps(panelBox, terms)).toBe(false);
    // Still none after scrolling the button into view.
    await page.getByRole('button', { name: 'Register' }).scrollIntoViewIfNeeded();
    expect(overlaps((await panel.boundingBox())!, (await page.getByRole('button', { name: 'Register' }).boundingBox())!)).toBe(false);

    await open(page, `${baseUrl()}/products`);
    await page.getByTestId('product-card').first().waitFor();
    const shopPanel = (await panel.boundingBox())!;
    for (const el of [page.getByRole('heading', { level: 1 }), page.getByTestId('product-card').first()]) {
      expect(overlaps(shopPanel, (await el.boundingBox())!)).toBe(false);
    }
    await context.close();
  });
});

describe('4. the first screen after registering', () => {
  it('greets the new user and shows no toast of the earlier failed try', async () => {
    const { context, page } = await visitor();
    await open(page, `${baseUrl()}/register`);
    await page.getByLabel('First name').fill('Rita');
    await page.getByLabel('Surname').fill('Alves');
    await page.getByLabel('Email').fill('buyer@example.com');
    await typePhone(page.getByLabel('Phone'), '912345670');
    await page.getByLabel('Password', { exact: true }).fill('copper-kettle-83');
    await page.getByLabel('Confirm password').fill('copper-kettle-83');
    await page.getByRole('checkbox').check();
    // A first try with a taken address fails with an error toast.
    await page.getByRole('button', { name: 'Register' }).click();
    await page.locator('.toast[data-kind="error"]').first().waitFor();
    await page.getByLabel('Email').fill(`polish.${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/\/(dashboard|email\/verify)$/);
    await page.locator('.toast', { hasText: 'Welcome to Atelier, Rita!' }).waitFor();
    expect(await page.locator('.toast[data-kind="error"]').count()).toBe(0);
    if (page.url().endsWith('/dashboard')) await page.getByTestId('welcome').getByRole('heading', { name: 'Welcome, Rita!' }).waitFor();
    await context.close();
  });
});

describe('5. tab titles and headings', () => {
  it('a product and a pack opened directly have their own title; a static page has one h1 and its title', async () => {
    const { context, page } = await visitor();
    const [product] = await api<{ slug: string; title: string }[]>('/api/products/catalog?limit=1&product_type=prompt');
    await open(page, `${baseUrl()}/products/${product!.slug}`);
    await page.getByRole('heading', { level: 1, name: product!.title }).waitFor();
    await titleOf(page, `${product!.title} — Atelier`);

    const [pack] = await api<{ slug: string; title: string }[]>('/api/packs?limit=1');
    await open(page, `${baseUrl()}/packs/${pack!.slug}`);
    await page.getByRole('heading', { level: 1, name: pack!.title }).waitFor();
    await titleOf(page, `${pack!.title} — Atelier`);

    await open(page, `${baseUrl()}/page/privacy`);
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    await titleOf(page, 'Privacy Policy — Atelier');
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Privacy Policy' }).count()).toBe(1);
    await context.close();
  });
});

describe('6. forms', () => {
  it('register: equal password boxes, a country code alone and a short password fail in the browser, a mismatch shows at once', async () => {
    const { context, page } = await visitor();
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
    });
    await open(page, `${baseUrl()}/register`);
    const pass = (await page.getByLabel('Password', { exact: true }).boundingBox())!;
    const confirm = (await page.getByLabel('Confirm password').boundingBox())!;
    expect(Math.abs(pass.height - confirm.height)).toBeLessThan(1);

    await page.getByLabel('First name').fill('Rui');
    await page.getByLabel('Surname').fill('Costa');
    await page.getByLabel('Email').fill(`rui.${Date.now()}@example.com`);
    // The field starts at the visitor's country (issue 18: this browser asks for en-US), never a fixed one.
    expect(await page.getByLabel('Phone').inputValue()).toMatch(/^\+1\s*$/);
    await page.getByLabel('Password', { exact: true }).fill('copper-kettle-83');
    await page.getByLabel('Confirm password').fill('copper-kettle-84');
    await page.getByRole('button', { name: 'Register' }).click();
    // The mismatch is reported without ticking the terms box first.
    await page.getByText('The passwords do not match.').waitFor();
    await page.getByText('You must accept the terms and the privacy policy.').waitFor();
    expect(await page.getByLabel('Phone').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Confirm password').fill('copper-kettle-83');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('The phone field is required.').waitFor();

    await typePhone(page.getByLabel('Phone'), '91');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Please enter a valid phone number with its country code.').waitFor();

    await page.getByLabel('Phone').pressSequentially('2345678');
    await page.getByLabel('Password', { exact: true }).fill('qwerty123');
    await page.getByLabel('Confirm password').fill('qwerty123');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('This password is too common. Please choose a less predictable one.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('kettle7');
    await page.getByLabel('Confirm password').fill('kettle7');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('The password must be at least 8 characters long.').waitFor();
    expect(posts.filter((p) => p === '/api/register')).toEqual([]);
    await context.close();
  });

  it('reset and change apply the same password rule in the browser', async () => {
    const { context, page } = await visitor();
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
    });
    await open(page, `${baseUrl()}/reset-password?token=0123456789abcdef0123&email=buyer%40example.com`);
    await page.getByLabel('New password', { exact: true }).fill('kettle7');
    await page.getByLabel('Confirm password').fill('kettle7');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('The password must be at least 8 characters long.').waitFor();
    await page.getByLabel('New password', { exact: true }).fill('password1');
    await page.getByLabel('Confirm password').fill('password1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('This password is too common. Please choose a less predictable one.').waitFor();

    await signIn(page, 'buyer@example.com');
    await open(page, `${baseUrl()}/dashboard/contact`);
    await page.getByLabel('Current password').fill('atelier-demo');
    await page.getByLabel('New password', { exact: true }).fill('kettle7');
    await page.getByLabel('Repeat new password').fill('kettle7');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.locator('.field-error', { hasText: 'The password must be at least 8 characters long.' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('iloveyou1');
    await page.getByLabel('Repeat new password').fill('iloveyou1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.locator('.field-error', { hasText: 'This password is too common.' }).waitFor();
    expect(posts.filter((p) => p.includes('password'))).toEqual([]);
    await context.close();
  });

  it('the profile form: roomy, at most 760 px wide, small hints, the same phone input as register', async () => {
    for (const width of [1280, 375]) {
      const { context, page } = await visitor({ width, height: width === 1280 ? 800 : 740 });
      await signIn(page, 'seller@example.com');
      await open(page, `${baseUrl()}/dashboard/contact`);
      const name = page.getByLabel('First name');
      await name.waitFor();
      await screenshot(page, `polish-profile-form-${width}`);
      const box = (await name.boundingBox())!;
      const next = (await page.getByText('Email', { exact: true }).boundingBox())!;
      if (width === 1280) {
        expect((await page.locator('.profile-sections').boundingBox())!.width).toBeLessThanOrEqual(760);
        // The e-mail label sits in the next row, with room above it.
        expect(next.y - (box.y + box.height)).toBeGreaterThanOrEqual(12);
      }
      // The phone field is the country picker and number of the register form.
      await page.locator('.react-international-phone-country-selector-button').first().waitFor();
      const hint = page.locator('.field-hint').first();
      const [hintSize, labelSize] = (await page.evaluate(
        `[getComputedStyle(document.querySelector('.field-hint')).fontSize, getComputedStyle(document.querySelector('.field label')).fontSize].map(parseFloat)`,
      )) as [number, number];
      expect(await hint.count()).toBe(1);
      expect(hintSize).toBeLessThanOrEqual(labelSize);
      await context.close();
    }
  });
});

describe('7. reset password without a token', () => {
  it('says the link is invalid at once and offers to send a new one', async () => {
    const { context, page } = await visitor();
    await open(page, `${baseUrl()}/reset-password`);
    await page.getByText('This reset link is invalid or incomplete.', { exact: false }).waitFor();
    expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    await page.getByLabel('Email').fill('buyer@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').waitFor();
    await context.close();
  });
});

describe('8. phone verification', () => {
  it('the profile links to /verification while the phone is unverified', async () => {
    const { context, page } = await visitor();
    await signIn(page, 'seller@example.com');
    await open(page, `${baseUrl()}/dashboard/contact`);
    await page.getByRole('link', { name: 'Verify your phone' }).click();
    await page.waitForURL(`${baseUrl()}/verification`);
    await context.close();
  });
});

describe('9. small things', () => {
  it('"1 result", a whole active chip on a phone, named social icons, dashboard screens without indent or repeated heading', async () => {
    const { context, page } = await visitor({ width: 375, height: 740 });
    const all = await api<{ title: string }[]>('/api/products/catalog?limit=48');
    // A title word no other product has: the search finds exactly one.
    const words = all.flatMap((p) => p.title.split(/\s+/).filter((w) => w.length > 5));
    const single = words.find((w) => words.filter((x) => x.toLowerCase() === w.toLowerCase()).length === 1)!;
    const found = (await (await fetch(`${baseUrl()}/api/products/catalog?search=${encodeURIComponent(single)}`)).json()) as { meta: { total: number } };
    expect(found.meta.total).toBe(1);
    await open(page, `${baseUrl()}/products?search=${encodeURIComponent(single)}`);
    await page
      .getByTestId('result-count')
      .getByText(/^1 result for/)
      .waitFor();

    await open(page, `${baseUrl()}/products/prompt`);
    const chip = (await page.getByRole('button', { name: 'Prompts', pressed: true }).boundingBox())!;
    expect(chip.x).toBeGreaterThanOrEqual(0);
    expect(chip.x + chip.width).toBeLessThanOrEqual(375);
    await screenshot(page, 'polish-shop-375');

    const social = page.locator('.social-icons a');
    await social.first().waitFor();
    for (const link of await social.all()) expect(await link.getAttribute('aria-label')).toMatch(/^Atelier on \S+/);
    await page.getByRole('link', { name: 'Atelier on Instagram (opens in a new tab)' }).waitFor({ state: 'attached' });
    await context.close();

    const desk = await visitor();
    await signIn(desk.page, 'buyer@example.com');
    for (const [path, tab, content] of [
      // Issue 31: the buyer's way into My projects is "Sell your work" (/dashboard is their Library).
      ['/dashboard/projects', 'My projects', '.my-projects'],
      ['/dashboard/chat', 'Chat', '[data-testid="chat-tab"]'],
    ] as const) {
      await open(desk.page, `${baseUrl()}${path}`);
      // The tab's own screen, once it has loaded (a spinner stands in for it until then).
      const tabScreen = desk.page.locator(`.dashboard > ${content}`);
      await tabScreen.waitFor();
      const header = (await desk.page.locator('.dashboard-header').boundingBox())!;
      const screen = (await tabScreen.boundingBox())!;
      expect(Math.abs(screen.x - header.x)).toBeLessThan(4);
      expect(await desk.page.getByRole('heading', { name: tab }).and(desk.page.locator(':not(.visually-hidden)')).count()).toBe(0);
    }
    await desk.context.close();
  });
});

describe('creator profiles and card taglines', () => {
  it('/profile/sofia is rendered on the server with her works, paged like the shop and sortable, with rate and member-since', async () => {
    const works = await api<{ title: string; price: number }[]>('/api/products/catalog?author=sofia&limit=48');
    expect(works.length).toBeGreaterThan(6);
    const html = await (await fetch(`${baseUrl()}/profile/sofia`)).text();
    expect(html).toContain(works[0]!.title.replace(/&/g, '&amp;'));

    for (const width of [1280, 375]) {
      const { context, page } = await visitor({ width, height: width === 1280 ? 800 : 740 });
      await open(page, `${baseUrl()}/profile/sofia`);
      const list = page.getByTestId('creator-works');
      await list.getByTestId('product-card').first().waitFor();
      expect(await list.getByTestId('product-card').count()).toBe(6);
      await page.getByText('Hourly rate').waitFor();
      await page.getByText('Member since').waitFor();
      expect(await page.getByTestId('profile-actions').count()).toBe(1);
      await screenshot(page, `polish-creator-${width}`);
      await context.close();
    }

    const { context, page } = await visitor();
    await open(page, `${baseUrl()}/profile/sofia`);
    await page.getByLabel('Sort').selectOption('price~asc');
    await page.waitForURL(/sort=price(~|%7E)asc/);
    const cheapest = [...works].sort((a, b) => a.price - b.price)[0]!;
    await page.getByTestId('creator-works').getByTestId('product-card').first().getByText(cheapest.title).waitFor();
    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(/page=2/);
    await page.getByRole('link', { name: 'Page 2' }).and(page.locator('[aria-current="page"]')).waitFor();
    expect(decodeURIComponent(page.url())).toContain('sort=price~asc');
    await context.close();
  });

  it('carousel cards: prompts and texts say what they are, never an image format', async () => {
    const { context, page } = await visitor();
    await open(page, `${baseUrl()}/`);
    const panel = page.getByRole('tabpanel');
    await panel.getByTestId('product-card').first().waitFor();
    const lines = await panel.locator('.card-tagline').allTextContents();
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines)).toEqual(new Set(['Prompt · works with any image model']));

    await page.getByRole('tab', { name: 'Text' }).click();
    await panel.locator('.card-type', { hasText: 'Texts' }).first().waitFor();
    const texts = await panel.locator('.card-tagline').allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    // The file type is the real one of each text (the seed's are plain-text files).
    for (const line of texts) expect(line).toMatch(/^[A-Z0-9]{2,5} · the full document to download$/);
    expect(texts.join(' ')).not.toMatch(/PNG|JPG|4K/);
    await context.close();
  });
});
