import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
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
  await expectAccessible(page, name);
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
  await expectAccessible(page, url);
}

/** What axe finds on a page that a test may not pass with (issue 31). */
const BLOCKING = new Set(['serious', 'critical']);

/**
 * Issue 31: axe-core on every page the suite opens (open) and every state it looks at (screenshot).
 * A serious or critical violation fails the test, naming the rule and the elements. The page's
 * background pictures behind the header stay in (color-contrast is checked as a person sees it).
 */
export async function expectAccessible(page: Page, where: string) {
  // The page settles first: a check in the middle of a fade reads half-drawn colours.
  await page.evaluate('document.fonts.ready.then(() => undefined)');
  // Legacy mode: axe runs in the page itself, so pages opened with browser.newPage() (no context of their own) are checked too.
  const result = await new AxeBuilder({ page }).setLegacyMode(true).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const blocking = result.violations.filter((v) => BLOCKING.has(v.impact ?? ''));
  if (!blocking.length) return;
  const lines = blocking.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1, 2).join('').trim()}`).join('\n')}`,
  );
  throw new Error(`axe found ${blocking.length} serious or critical problem(s) on ${where}:\n  ${lines.join('\n  ')}`);
}
