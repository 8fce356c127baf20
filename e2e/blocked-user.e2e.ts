import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, open, screenshot } from './browser';
import { registerThroughForm, signIn } from './flows';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

describe('blocking a user in the browser (issue 18 bug 3)', () => {
  it('issue 18 bug 3: staff confirm the block with a reason; the user’s screen says at once that the account is blocked', async () => {
    const userContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const user = await userContext.newPage();
    const email = await registerThroughForm(user, { name: 'Nora', surname: 'Keller', emailPrefix: 'e2e.blocked', phonePrefix: '93' });
    await user.getByRole('heading', { name: 'Nora Keller' }).waitFor();

    const staffContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const staff = await staffContext.newPage();
    await signIn(staff, 'admin@example.com');
    await open(staff, `${baseUrl()}/admin/users`);
    await staff.getByLabel('E-mail, nickname, name or id').fill(email);
    await staff.getByRole('button', { name: 'Search' }).click();
    await staff.getByRole('button', { name: new RegExp(email.replace(/[.]/g, '\\.')) }).click();
    await staff.getByRole('button', { name: 'Block', exact: true }).click();

    const dialog = staff.getByRole('dialog', { name: 'Block Nora Keller?' });
    await dialog.waitFor();
    // No reason, no block.
    await dialog.getByRole('button', { name: 'Block account' }).click();
    await dialog.getByText('Please give a reason for the block.').waitFor();
    await dialog.getByLabel('Reason').fill('Selling artwork that is not theirs.');
    await screenshot(staff, 'admin-block-dialog-1280', { fullPage: false });
    await staff.setViewportSize({ width: 375, height: 800 });
    await screenshot(staff, 'admin-block-dialog-375', { fullPage: false });
    await dialog.getByRole('button', { name: 'Block account' }).click();
    await staff.getByText('Saved.').waitFor();

    // The user, still on their dashboard, is signed out and told, without doing anything.
    await user.getByRole('heading', { name: 'Your account is blocked' }).waitFor();
    expect(new URL(user.url()).pathname).toBe('/account-blocked');
    await user.getByRole('link', { name: 'Contact support' }).waitFor();
    await screenshot(user, 'account-blocked-1280');
    await user.setViewportSize({ width: 375, height: 800 });
    await screenshot(user, 'account-blocked-375');

    // The e-mail carries the reason.
    await staff.goto(`${baseUrl()}/dev/mail`);
    const mail = staff.locator('article.mail', { hasText: 'Your Atelier account is blocked' }).filter({ hasText: email });
    await expect(mail.first().textContent()).resolves.toContain('Reason: Selling artwork that is not theirs.');
    await Promise.all([userContext.close(), staffContext.close()]);
  });
});
