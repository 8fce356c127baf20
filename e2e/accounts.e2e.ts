import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, open, screenshot } from './browser';
import { typePhone } from './flows';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

describe('accounts in the browser', () => {
  it('register, verify from /dev/mail, log out and in, edit the profile, upload an avatar, change the password', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = `e2e.${Date.now()}@example.com`;

    await open(page, `${baseUrl()}/register`);
    await page.getByLabel('First name').fill('Marta');
    await page.getByLabel('Surname').fill('Lopes');
    await page.getByLabel('Email').fill(email);
    await typePhone(page.getByLabel('Phone'), '912345679');
    await page.getByLabel('Password', { exact: true }).fill('amber-orchard-51');
    await page.getByLabel('Confirm password').fill('amber-orchard-51');
    await screenshot(page, 'register');
    // Submitting without the terms box shows its message under it.
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('You must accept the terms and the privacy policy.').waitFor();
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${baseUrl()}/dashboard`);
    await page.getByRole('heading', { name: 'Marta Lopes' }).waitFor();

    // The verification link from the development outbox.
    await page.goto(`${baseUrl()}/dev/mail`);
    const href = await page.locator('a', { hasText: '/email/verify/' }).first().getAttribute('href');
    expect(href).toContain('/email/verify/');
    await open(page, href!.replace('http://localhost:3000', baseUrl()).replace(/^http:\/\/127\.0\.0\.1:\d+/, baseUrl()));
    await page.waitForURL(`${baseUrl()}/email/verify/success`);
    await page.getByText('Thank you! Your e-mail address is verified.').waitFor();

    // Log out, then log in.
    await open(page, `${baseUrl()}/dashboard`);
    // The app goes home at once and ends the session on the server in the background: the next
    // page load waits for that answer, as a person typing a new address would.
    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/logout'));
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${baseUrl()}/`);
    await loggedOut;
    await open(page, `${baseUrl()}/login`);
    await signInThroughForm(page, email, 'amber-orchard-51');
    await page.waitForURL(`${baseUrl()}/dashboard`);

    // Edit the profile.
    await page.getByRole('link', { name: 'Contact information' }).click();
    await page.getByLabel('About me').fill('I paint harbours at dawn.');
    await page.getByLabel('First name').fill('Marta Sofia');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Profile updated successfully!').waitFor();
    await page.getByRole('heading', { name: 'Marta Sofia Lopes' }).waitFor();

    // Upload an avatar and see it.
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#d94f70' } })
      .png()
      .toBuffer();
    await page.locator('#avatar-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.getByText('Avatar uploaded successfully!').waitFor();
    const src = await page.getByTestId('profile-avatar').getAttribute('src');
    expect(src).toMatch(/^\/storage\/avatars\/\d+\/[a-f0-9]+-300\.webp$/);
    const loaded = await page
      .getByTestId('profile-avatar')
      .evaluate((img) => (img as { complete: boolean; naturalWidth: number }).complete && (img as { naturalWidth: number }).naturalWidth);
    expect(loaded).toBe(300);
    await screenshot(page, 'dashboard-contact');

    // A wrong current password is refused; the right one changes it.
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('cedar-lantern-62');
    await page.getByLabel('Repeat new password').fill('cedar-lantern-62');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is incorrect.').first().waitFor();
    await page.getByLabel('Current password').fill('amber-orchard-51');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed successfully!').waitFor();

    // Log in with the new password in a fresh browser.
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    await other.goto(`${baseUrl()}/login`);
    await signInThroughForm(other, email, 'amber-orchard-51');
    await other.getByText('The e-mail or password is incorrect.').first().waitFor();
    await signInThroughForm(other, email, 'cedar-lantern-62');
    await other.waitForURL(`${baseUrl()}/dashboard`);
    await fresh.close();
    await context.close();
  });

  it('sends a guest from /dashboard to login and back there after signing in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await open(page, `${baseUrl()}/dashboard/contact`);
    await page.waitForURL(/\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard/contact');
    await screenshot(page, 'login');
    await signInThroughForm(page, 'buyer@example.com', 'atelier-demo');
    await page.waitForURL(`${baseUrl()}/dashboard/contact`);
    await page.getByRole('heading', { name: 'Bianca Byrne' }).waitFor();
    // A signed-in user opening a guest-only page goes to the dashboard.
    await open(page, `${baseUrl()}/login`);
    await page.waitForURL(`${baseUrl()}/dashboard`);
    await context.close();
  });
});
