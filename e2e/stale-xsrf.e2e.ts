import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, open } from './browser';
import { registerThroughForm } from './flows';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** Every answer to a call under /api/ or /sanctum/, in order, as "METHOD path status". */
function recordCalls(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (res: Response) => {
    const url = new URL(res.url());
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/sanctum/')) seen.push(`${res.request().method()} ${url.pathname} ${res.status()}`);
  });
  return seen;
}

async function signInThroughForm(page: Page, email: string, password: string) {
  await open(page, `${baseUrl()}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Another browser resets the password through the e-mailed link: every session of the account ends. */
async function resetPasswordElsewhere(context: BrowserContext, email: string, password: string) {
  const base = baseUrl();
  await context.request.get(`${base}/sanctum/csrf-cookie`);
  const cookies = await context.cookies(base);
  const token = decodeURIComponent(cookies.find((c) => c.name === 'XSRF-TOKEN')!.value);
  const ask = await context.request.post(`${base}/api/user/reset-password`, { data: { email }, headers: { 'X-XSRF-TOKEN': token } });
  expect(ask.status()).toBe(200);
  const page = await context.newPage();
  await page.goto(`${base}/dev/mail`);
  const href = await page
    .locator('a', { hasText: `email=${encodeURIComponent(email)}` })
    .first()
    .getAttribute('href');
  const link = new URL(href!);
  const done = await context.request.post(`${base}/api/reset-password`, {
    data: { email, token: link.searchParams.get('token'), password, password_confirmation: password },
    headers: { 'X-XSRF-TOKEN': token },
  });
  expect(done.status()).toBe(200);
}

describe('a stale XSRF cookie in the browser (issue 18 bug 1)', () => {
  it('issue 18 bug 1: after a password reset in another browser, the old browsers sign in again and a 419 is retried with a renewed cookie', async () => {
    // Two browsers signed in to one account, and a third one where the password is reset.
    const first = await browser.newContext();
    const firstPage = await first.newPage();
    const email = await registerThroughForm(firstPage, { name: 'Lena', surname: 'Vogt', emailPrefix: 'e2e.stale', phonePrefix: '91' });
    const second = await browser.newContext();
    const secondPage = await second.newPage();
    await signInThroughForm(secondPage, email, 'amber-orchard-51');
    await secondPage.waitForURL(`${baseUrl()}/dashboard`);
    // The first browser keeps its cookies but has no page open, so no live event tells it of the
    // reset (an open page is told at once, and renews its cookie before it calls again).
    await firstPage.goto('about:blank');
    const elsewhere = await browser.newContext();
    await resetPasswordElsewhere(elsewhere, email, 'harbour-lantern-62');

    // Path 1, the sign-in: the form renews the XSRF cookie first, so the login is accepted at once.
    const secondCalls = recordCalls(secondPage);
    await signInThroughForm(secondPage, email, 'harbour-lantern-62');
    await secondPage.waitForURL(`${baseUrl()}/dashboard`);
    await secondPage.getByRole('heading', { name: 'Lena Vogt' }).waitFor();
    expect(secondCalls).toContain('GET /sanctum/csrf-cookie 204');
    expect(secondCalls).toContain('POST /api/login 200');
    expect(secondCalls.filter((c) => c.endsWith(' 419'))).toEqual([]);

    // Path 2, any other call: the first browser, now a guest with the ended session's cookie, writes
    // to support. The call gets a 419, the app renews the cookie and sends it once more.
    const firstCalls = recordCalls(firstPage);
    await open(firstPage, `${baseUrl()}/contact`);
    await firstPage.getByLabel('Your name').fill('Lena Vogt');
    await firstPage.getByLabel('E-mail').fill(email);
    await firstPage.getByLabel('Message').fill('I was signed out and could send this anyway.');
    await firstPage.getByRole('button', { name: 'Send message' }).click();
    await firstPage.getByText('Thank you! Your message has been sent.').waitFor();
    const contact = firstCalls.filter((c) => c.includes('/api/contact') || c.includes('/sanctum/csrf-cookie'));
    expect(contact).toEqual(['POST /api/contact 419', 'GET /sanctum/csrf-cookie 204', 'POST /api/contact 200']);

    // And the first browser signs in with the new password as well.
    await signInThroughForm(firstPage, email, 'harbour-lantern-62');
    await firstPage.waitForURL(`${baseUrl()}/dashboard`);
    await Promise.all([first.close(), second.close(), elsewhere.close()]);
  });
});
