import type { BrowserContext, Locator, Page } from 'playwright-core';
import { baseUrl, open } from './browser';

/** Signs a seeded demo account in through the login form and waits to leave it. */
export async function signIn(page: Page, email: string) {
  await open(page, `${baseUrl()}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('atelier-demo');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Registers a new account through the form (a unique e-mail and Portuguese mobile) and lands on the dashboard. */
/**
 * Types a Portuguese mobile number (+351 and `national`) into the phone field, as a person does
 * who replaces the country the field started at (the visitor's: United States for this browser).
 */
export async function typePhone(field: Locator, national: string) {
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.press('Backspace');
  await field.pressSequentially(`+351${national}`);
}

export async function registerThroughForm(
  page: Page,
  who: { name: string; surname: string; emailPrefix: string; phonePrefix: string },
  base = baseUrl(),
): Promise<string> {
  const email = `${who.emailPrefix}.${Date.now()}@example.com`;
  await open(page, `${base}/register`);
  await page.getByLabel('First name').fill(who.name);
  await page.getByLabel('Surname').fill(who.surname);
  await page.getByLabel('Email').fill(email);
  await typePhone(page.getByLabel('Phone'), `${who.phonePrefix}${String(Date.now()).slice(-7)}`);
  await page.getByLabel('Password', { exact: true }).fill('amber-orchard-51');
  await page.getByLabel('Confirm password').fill('amber-orchard-51');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL(`${base}/dashboard`);
  return email;
}

/** The balance in EUR cents, asked with the context's own cookies. */
export async function balanceMinor(context: BrowserContext): Promise<number> {
  const res = await context.request.get(`${baseUrl()}/api/balance?currency=EUR`);
  if (res.status() !== 200) throw new Error(`GET /api/balance answered ${res.status()}`);
  return ((await res.json()) as { payload: { amount_minor: number } }).payload.amount_minor;
}
