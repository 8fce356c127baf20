import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, open, screenshot } from './browser';
import { registerThroughForm } from './flows';
import { ownServer } from './server';

/**
 * Passkeys (issue 21) in Chromium with a virtual authenticator (the DevTools protocol's WebAuthn
 * domain). WebAuthn refuses IP addresses, so this file runs its own server whose PUBLIC_URL is
 * http://localhost:<port>.
 */
const baseUrl = ownServer('passkeys', { publicHost: 'localhost' });
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const register = (page: Page, base: string) =>
  registerThroughForm(page, { name: 'Pia', surname: 'Schlüssel', emailPrefix: 'e2e.passkey', phonePrefix: '96' }, base);

describe('passkeys in the browser (issue 21)', () => {
  it('a user adds a passkey on the Security tab, signs out, and signs in with it and no password', async () => {
    const base = baseUrl();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    await register(page, base);
    await page.getByRole('link', { name: 'Security' }).click();
    await page.waitForURL(`${base}/dashboard/security`);
    await page.getByText('You have no passkeys yet.').waitFor();
    await page.getByLabel('Name of the new passkey').fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Your passkey has been added.').waitFor();
    const row = page.getByTestId('passkey-row');
    await row.getByText('Test laptop').waitFor();
    await expect(row.textContent()).resolves.toContain('never used yet');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);

    await page.getByText('Your passkey has been added.').waitFor({ state: 'detached' });
    await screenshot(page, 'security-passkeys-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'security-passkeys-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    const shots = process.env.PASSKEY_SHOTS_DIR;
    if (shots) {
      mkdirSync(shots, { recursive: true });
      for (const name of ['security-passkeys-1280', 'security-passkeys-375'])
        copyFileSync(path.resolve(`e2e/screenshots/${name}.png`), path.join(shots, `${name}.png`));
    }

    // The app goes home at once and ends the session in the background: wait for that answer.
    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/logout'));
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${base}/`);
    await loggedOut;

    // The e-mail field offers passkeys among its suggestions (conditional UI, autocomplete "username
    // webauthn"). Whether the virtual authenticator answers that suggestion by itself depends on the
    // machine's timing, so autofill is turned off and the sign-in goes through the button.
    await page.addInitScript(() => {
      // In the page: this file is typed without the DOM library, so its globals are reached through globalThis.
      const { PublicKeyCredential } = globalThis as unknown as { PublicKeyCredential: { isConditionalMediationAvailable: () => Promise<boolean> } };
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    await open(page, `${base}/login`);
    await expect(page.getByLabel('Email').getAttribute('autocomplete')).resolves.toBe('username webauthn');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${base}/dashboard`);
    await page.getByRole('heading', { name: 'Pia Schlüssel' }).waitFor();
    const profile = await context.request.get(`${base}/api/user/profile`);
    expect(profile.status()).toBe(200);

    await open(page, `${base}/dashboard/security`);
    await expect(page.getByTestId('passkey-row').textContent()).resolves.toMatch(/last used \d\d\.\d\d\.\d{4}/);
    await context.close();
  }, 120_000);
});
