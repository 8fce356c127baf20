import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, open, screenshot } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

type Listed = { title: string; description: string; author: string; authorNickname: string; tags: string[]; items?: Listed[] };

/**
 * What creators wrote, which stays as written in every language (SPEC: user content): every work's
 * title, description, tags and author, asked from the catalogue page by page, packs' items included.
 */
async function creatorTexts(): Promise<string[]> {
  const texts = new Set<string>();
  const add = (p: Listed) => {
    for (const text of [p.title, p.description, p.author, `@${p.authorNickname}`, ...p.tags.map((tag) => `#${tag}`)]) texts.add(text);
    for (const item of p.items ?? []) add(item);
  };
  for (let n = 1; ; n++) {
    const res = await fetch(`${baseUrl()}/api/products/catalog?limit=24&page=${n}`);
    const body = (await res.json()) as { payload: Listed[] };
    if (body.payload.length === 0) break;
    for (const p of body.payload) add(p);
  }
  return [...texts];
}

/**
 * English words a page in German must not show anywhere a person or a screen reader meets them.
 * Words German shares (Shop, Chat, Cookies, Prompts, Support, Tags, Passkeys) are not in it.
 */
const ENGLISH =
  /\b(the|and|your|you|with|of|to|by|from|is|are|Sign|Log|Buy|Price|Search|Sort|items?|results?|Home|Products?|Works?|Favourites|Orders?|Balance|Settings|Cart|Add|Menu|Close|Dismiss|Loading|Breadcrumb|Page|Next|Previous|Reviews?|Rated|Terms|Privacy|Policy|About|rights|reserved|Country|selector|Time|Views|Sales|Deposits|Statement|Contact|Creator|Language|Currency|Notifications|Essentials only|Accept|Customize|Skip|Licen[cs]e|included|Type|Category|Newest|Oldest)\b/;

/** The page's words as a person and a screen reader meet them: title, visible text, labels, placeholders, alt texts. */
async function pageWords(page: Page): Promise<string> {
  // Run in the page.
  const read = () => {
    type El = { getAttribute(name: string): string | null };
    // This file is typed without the DOM library, so its globals are reached through globalThis.
    const { document } = globalThis as unknown as {
      document: { title: string; body: { innerText: string }; querySelectorAll(selector: string): Iterable<El> };
    };
    const attributes = [...document.querySelectorAll('[aria-label], [placeholder], [title], img[alt]')].flatMap((el) =>
      ['aria-label', 'placeholder', 'title', 'alt'].map((name) => el.getAttribute(name) ?? ''),
    );
    return [document.title, document.body.innerText, ...attributes].join('\n');
  };
  return page.evaluate(read);
}

/** The English words left on the page once what creators and the signed-in user wrote is taken out. */
async function englishLeft(page: Page, userTexts: string[]): Promise<string[]> {
  let words = await pageWords(page);
  // Longest first, so a title is taken out whole before a shorter text inside it.
  for (const text of [...userTexts].sort((a, b) => b.length - a.length)) words = words.split(text).join(' ');
  // The language switcher names each language in itself.
  words = words.replaceAll('English', ' ');
  return words
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => ENGLISH.test(line));
}

/** Waits until the page shows its content in German (the words arrive with the page, or a moment after). */
async function shownInGerman(page: Page, selector: string) {
  await page.locator('html[lang="de"]').waitFor({ state: 'attached' });
  await page.locator(selector).first().waitFor();
  await page.waitForLoadState('networkidle');
}

async function noHorizontalScroll(page: Page) {
  const [scrollWidth, width] = (await page.evaluate('[document.scrollingElement.scrollWidth, window.innerWidth]')) as [number, number];
  expect(scrollWidth).toBeLessThanOrEqual(width);
  // Nothing sticks out on the right (long German words), except inside the horizontal scrollers.
  const cut = (await page.evaluate(
    `[...document.querySelectorAll('main *, header *, footer *')].filter((el) => !el.closest('.carousel-track, .chips, .dashboard-tabs') && el.getClientRects().length > 0 && el.getBoundingClientRect().right > window.innerWidth + 1).map((el) => el.tagName + '.' + el.className)`,
  )) as string[];
  expect(cut).toEqual([]);
}

describe('German (issue 18)', () => {
  it('issue 18: the header switch to Deutsch leaves no English on home, the shop, a product, a pack, registration and the dashboard; the footer switch goes back', async () => {
    const userTexts = await creatorTexts();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();

    // An English home page; the header's switcher opens the same page in German.
    await open(page, `${baseUrl()}/`);
    await page.locator('header').getByRole('combobox', { name: 'Language' }).selectOption('de');
    await page.waitForURL(`${baseUrl()}/de`);
    await shownInGerman(page, 'h1');
    await page.getByRole('heading', { name: 'Tritt ein' }).waitFor();
    // The cookie panel is part of the page, in German too.
    await page.getByRole('button', { name: 'Nur notwendige' }).waitFor();
    expect(await englishLeft(page, userTexts)).toEqual([]);
    // The footer: the static pages' titles and the cookie settings, in German.
    const footer = page.locator('footer');
    for (const name of ['Nutzungsbedingungen', 'Datenschutzerklärung', 'Cookie-Richtlinie', 'Über Atelier', 'Cookie-Einstellungen']) {
      await footer.getByText(name, { exact: true }).waitFor();
    }
    await page.getByRole('button', { name: 'Nur notwendige' }).click();

    // The shop, reached from the header: the count is a German plural.
    await page.locator('header').getByRole('link', { name: 'Kaufen', exact: true }).click();
    await page.waitForURL(`${baseUrl()}/de/products`);
    await shownInGerman(page, '[data-testid="product-card"]');
    await page
      .getByTestId('result-count')
      .filter({ hasText: /^\d+ Ergebnisse$/ })
      .waitFor();
    expect(await page.title()).toBe('Katalog — Atelier');
    expect(await englishLeft(page, userTexts)).toEqual([]);

    // One result is singular.
    await open(page, `${baseUrl()}/de/products?search=${encodeURIComponent('Velvet Gradient Set')}`);
    await shownInGerman(page, '[data-testid="product-card"]');
    await page
      .getByTestId('result-count')
      .filter({ hasText: /^1 Ergebnis für „Velvet Gradient Set“$/ })
      .waitFor();

    // A product, opened from the list.
    await page.getByTestId('product-card').first().locator('a').first().click();
    await page.waitForURL(/\/de\/products\/velvet-gradient-set$/);
    await shownInGerman(page, '[data-testid="product-details"]');
    await page.getByRole('navigation', { name: 'Navigationspfad' }).waitFor();
    expect(await englishLeft(page, userTexts)).toEqual([]);

    // A pack, with its count of works.
    await open(page, `${baseUrl()}/de/packs/prompt-essentials`);
    await shownInGerman(page, '[data-testid="product-details"]');
    await page.getByText('5 Werke enthalten').waitFor();
    expect(await englishLeft(page, userTexts)).toEqual([]);

    // The registration form, with its phone field's countries (the library names them in English).
    await open(page, `${baseUrl()}/de/register`);
    await shownInGerman(page, 'form');
    await page.getByRole('combobox', { name: 'Ländervorwahl' }).waitFor();
    expect(await englishLeft(page, userTexts)).toEqual([]);

    // Signing in, in German: the form's messages and the server's answer are German too.
    await open(page, `${baseUrl()}/de/login`);
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await page.getByText('Bitte fülle „E-Mail“ aus.').waitFor();
    // An address no account has: the demo accounts' sign-in limits stay for the other tests.
    await page.getByLabel('E-Mail').fill(`nobody.${Date.now()}@example.com`);
    await page.getByLabel('Passwort', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await page.getByText('E-Mail-Adresse oder Passwort ist falsch.').waitFor();
    expect(await englishLeft(page, userTexts)).toEqual([]);

    // The right password, and the dashboard with its tabs.
    await page.getByLabel('E-Mail').fill('buyer@example.com');
    await page.getByLabel('Passwort', { exact: true }).fill('atelier-demo');
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    const me = (await (await context.request.get(`${baseUrl()}/api/user/profile`)).json()) as {
      payload: { name: string; surname: string; nickname: string };
    };
    const ownTexts = [...userTexts, `${me.payload.name} ${me.payload.surname}`, `@${me.payload.nickname}`];
    for (const [path, title] of [
      // Issue 31: a buyer's dashboard opens on their Library, at the orders.
      ['/de/dashboard', 'Bestellverlauf'],
      ['/de/dashboard/orders', 'Bestellverlauf'],
      ['/de/dashboard/statement', 'Kontoauszug'],
      ['/de/dashboard/favourites', 'Favoriten'],
    ] as const) {
      await open(page, `${baseUrl()}${path}`);
      await shownInGerman(page, 'main');
      // The tab's German title names it (not every tab repeats it as a heading).
      await page.waitForFunction(`document.title === ${JSON.stringify(`${title} — Atelier`)}`);
      expect(await englishLeft(page, ownTexts), path).toEqual([]);
    }

    // The footer's switcher leads back to the same page in English.
    await page.locator('footer').getByRole('combobox', { name: 'Sprache' }).selectOption('en');
    await page.waitForURL(`${baseUrl()}/dashboard/favourites`);
    await page.locator('html[lang="en"]').waitFor({ state: 'attached' });
    await page.waitForFunction(`document.title === 'Favourites — Atelier'`);
    await context.close();
  });

  it('issue 18: German home and product pages at 1280 and 375 px: no word runs out of the screen', async () => {
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: width === 375 ? 812 : 800 } });
      await context.addCookies([{ name: 'cookie_consent', value: 'essential', url: baseUrl() }]);
      const page = await context.newPage();
      await open(page, `${baseUrl()}/de`);
      await shownInGerman(page, '[data-testid="product-card"]');
      await noHorizontalScroll(page);
      await screenshot(page, `german-home-${width}`);
      await open(page, `${baseUrl()}/de/products/velvet-gradient-set`);
      await shownInGerman(page, '[data-testid="product-details"]');
      await noHorizontalScroll(page);
      await screenshot(page, `german-product-${width}`);
      await context.close();
    }
  });
});
