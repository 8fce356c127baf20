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

/** From the Add Funds form with its amount: 'Card (test payment)' → the sandbox's hosted card page → the success page of `base`. */
export async function payWithTestCard(page: Page, base: string) {
  await page.getByRole('radio', { name: 'Card (test payment)' }).check();
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL(/\/api\/payments\/sandbox\/pay\//);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Month').fill('12');
  await page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2));
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL(`${base}/success-payment`);
}

/** Add Funds of `amount` euros on the server at `base`, paid with the sandbox's test card, until the success page says so. */
export async function addFunds(page: Page, base: string, amount: number) {
  await open(page, `${base}/deposit/create`);
  await page.getByLabel('Amount').fill(String(amount));
  await payWithTestCard(page, base);
  await page
    .getByTestId('latest-deposit')
    .getByText(`€${amount.toFixed(2)} is successful`)
    .waitFor();
}
