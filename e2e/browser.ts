import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const baseUrl = () => inject('baseUrl');

/** Debian's Chromium, headless; no browser is ever downloaded. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/**
 * Saves a screenshot under e2e/screenshots for a person to look at: the whole page, or with
 * `fullPage: false` only what the window shows (a dialog over a long page on a phone).
 */
export async function screenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  const dir = path.resolve('e2e/screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
}

/**
 * Opens a page of the app and waits until the app has taken it over. A server-rendered page shows
 * its content before its scripts run; a click in that moment does nothing, for a test as for a person.
 */
export async function open(page: Page, url: string) {
  await page.goto(url);
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
}
