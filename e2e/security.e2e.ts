import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, open, screenshot } from './browser';
import { codeAt, registerThroughForm } from './flows';
import { ownServer } from './server';

/**
 * Its own server, as the passkeys file has: the accounts made here do not count against the shared
 * server's sign-ups per address (10 an hour), which the other files use.
 */
const baseUrl = ownServer('security');
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

async function passwordStep(page: Page, email: string) {
  await open(page, `${baseUrl()}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('amber-orchard-51');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
}

describe('two-factor sign-in in the browser (issue 21)', () => {
  it('issue 21: a user enrols TOTP on the Security tab, signs in with a code from the secret, then with a recovery code', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const email = await registerThroughForm(page, { name: 'Tomas', surname: 'Berg', emailPrefix: 'e2e.totp', phonePrefix: '96' }, baseUrl());
    await page.getByRole('link', { name: 'Security' }).click();
    await page.waitForURL(`${baseUrl()}/dashboard/security`);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await page.getByAltText('QR code for your authenticator app').waitFor();
    const secret = (await page.getByTestId('totp-key').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'security-setup-1280');
    await page.getByLabel('Code from the app').fill(codeAt(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    const codes = (await page.getByTestId('recovery-codes').locator('li').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await screenshot(page, 'security-recovery-codes-1280');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Two-factor sign-in is on. Recovery codes left: 10.').waitFor();
    await screenshot(page, 'security-tab-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'security-tab-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Signed out, then in again: the password, then the next code the app shows.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${baseUrl()}/`);
    await passwordStep(page, email);
    await screenshot(page, 'login-two-factor-1280');
    await page.getByLabel('Code from the app').fill(codeAt(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${baseUrl()}/dashboard`);

    // And with a recovery code, which then is used up.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${baseUrl()}/`);
    await passwordStep(page, email);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${baseUrl()}/dashboard`);
    await open(page, `${baseUrl()}/dashboard/security`);
    await page.getByText('Two-factor sign-in is on. Recovery codes left: 9.').waitFor();
    await page.getByTestId('session').first().waitFor();
    await context.close();
  });
});
