import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, open, screenshot } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

describe('foundation', () => {
  it('renders the home page', async () => {
    const page = await browser.newPage();
    await open(page, `${baseUrl()}/`);
    await expect(page.getByRole('heading', { name: 'Step Inside' }).waitFor()).resolves.toBeUndefined();
    // The hero and the closing call to action both say 'Get Started' (SPEC §2 home).
    await expect(page.getByRole('link', { name: 'Get Started' }).first().isVisible()).resolves.toBe(true);
    expect(await page.title()).toContain('Atelier');
    await screenshot(page, 'home');
    await page.close();
  });

  it('shows the 404 page for an unknown path', async () => {
    const page = await browser.newPage();
    await open(page, `${baseUrl()}/this/does/not/exist`);
    await page.getByTestId('not-found').waitFor();
    // Issue 18 bug 9: the page stays at its address (the server answered 404 with this page).
    expect(page.url()).toBe(`${baseUrl()}/this/does/not/exist`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    await page.close();
  });

  it('sends a guest from a protected page to login with the redirect', async () => {
    const page = await browser.newPage();
    await open(page, `${baseUrl()}/dashboard`);
    await page.waitForURL(/\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard');
    await page.close();
  });
});
