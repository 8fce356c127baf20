import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { baseUrl, open } from './browser';

/**
 * A fresh browser context (its own cookies) for one person on the server at `base`, with the cookie
 * banner answered, so the panel does not cover what the test clicks.
 */
export async function personContext(
  browser: Browser,
  base: string,
  { width = 1280, height = 900, timeout, acceptDownloads }: { width?: number; height?: number; timeout?: number; acceptDownloads?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads });
  await context.addCookies([{ name: 'cookie_consent', value: 'essential', url: base }]);
  if (timeout !== undefined) context.setDefaultTimeout(timeout);
  return { context, page: await context.newPage() };
}

/**
 * Signs an account in through the login form (of the shared server unless `base` names another; a
 * seeded demo account unless `password` is given) and waits to leave it.
 */
export async function signIn(page: Page, email: string, base = baseUrl(), password = 'atelier-demo') {
  await open(page, `${base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

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

/** Registers a new account through the form (a unique e-mail and Portuguese mobile) and lands on the dashboard. */
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

/**
 * From the Add Funds form with its amount: 'Card (test payment)' → the sandbox's hosted card page,
 * paid with `card` (its BIN says the card's country: 4242… is a US card) → the success page of `base`.
 */
export async function payWithTestCard(page: Page, base: string, card = '4242 4242 4242 4242') {
  await page.getByRole('radio', { name: 'Card (test payment)' }).check();
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL(/\/api\/payments\/sandbox\/pay\//);
  await page.getByLabel('Card number').fill(card);
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

/** The code an authenticator app would show `steps` periods from now. */
export const codeAt = (secret: string, steps = 0) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

/** The XSRF header a page of the app would send, for calls made with the context's own cookies. */
export async function xsrfHeaders(context: BrowserContext) {
  const token = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'x-xsrf-token': decodeURIComponent(token), accept: 'application/json' };
}

/** A call to the server at `base` with the context's cookies and XSRF header, as the app makes it: its status and JSON body (null if none). */
export async function apiCall<P = unknown>(
  context: BrowserContext,
  base: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  body: { data?: unknown; multipart?: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> } = {},
) {
  const res = await context.request.fetch(`${base}${url}`, { method, ...body, headers: await xsrfHeaders(context) });
  return { status: res.status(), body: (await res.json().catch(() => null)) as { payload?: P; message?: string } | null };
}

/**
 * A new creator's listing: they sign up through the form on `page`, give their trader details (a
 * listing is sold under the creator's name, issue 33) and offer `listing.file` as a listing, through
 * the API as the offer dialog sends it (the offer form has its own e2e). Answers their e-mail and the offer.
 */
export async function newCreatorListing(
  page: Page,
  base: string,
  who: { name: string; surname: string; emailPrefix: string; phonePrefix: string },
  listing: { title: string; price: string; file: { name: string; buffer: Buffer } },
) {
  const email = await registerThroughForm(page, who, base);
  const details = await apiCall(page.context(), base, 'PUT', '/api/user/seller-details', {
    data: {
      kind: 'individual',
      legal_name: `${who.name} ${who.surname}`,
      date_of_birth: '1988-03-14',
      address: { line1: 'Hafenstraße 3', city: 'Hamburg', post_code: '20459', country: 'DE' },
      tax_id: '12345678901',
    },
  });
  if (details.status !== 200) throw new Error(`PUT /api/user/seller-details answered ${details.status}`);
  const created = await apiCall<{ id: number; deal_type: string }>(page.context(), base, 'POST', '/api/offer/create', {
    multipart: {
      title: listing.title,
      description: 'Lanterns on the pier.',
      category_id: '1',
      price: listing.price,
      deal_type: 'listing',
      confirm: 'true',
      keywords: 'Impressionism',
      media: { name: listing.file.name, mimeType: 'image/png', buffer: listing.file.buffer },
    },
  });
  if (created.status !== 200) throw new Error(`POST /api/offer/create answered ${created.status}`);
  return { email, offer: created.body!.payload! };
}

/** Staff approve the pending listing `title` as it is, at `price` (as the button shows it: "20.00"), in the back office. */
export async function approveListing(staff: Page, base: string, title: string, price: string) {
  await open(staff, `${base}/admin`);
  const review = staff.getByRole('article', { name: title });
  await review.getByText('Listing', { exact: true }).waitFor();
  await review.getByRole('button', { name: `Approve and list at €${price}` }).click();
  await staff.getByText(`“${title}” is listed in the shop.`).waitFor();
}
