import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, open, screenshot } from './browser';
import { personContext, signIn } from './flows';
import { ownServer } from './server';

/**
 * Notice and action in Debian's Chromium (issue 33, DSA): a guest reports a creator's work from its
 * page; staff remove it from the back office's Reports queue; the work leaves the shop; the creator
 * reads the statement of reasons under "Reports about my content" and appeals; staff reverse the
 * removal and the work is back. Its own server, so the removal does not touch other files' works.
 */
const WAIT = 60_000;
const base = ownServer('reports');
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const personPage = async (width = 1280) => (await personContext(browser, base(), { width, timeout: WAIT })).page;

const productStatus = async (slug: string) => (await fetch(`${base()}/api/products/${slug}/info`)).status;

describe('notice and action in the browser (issue 33)', () => {
  it('a guest reports a work; staff remove it; the creator reads the statement of reasons and appeals; staff restore it', { timeout: 240_000 }, async () => {
    // One of the demo creator's (sofia's) works.
    const catalog = (await (await fetch(`${base()}/api/products/catalog?limit=48&product_type=image`)).json()) as {
      payload: { id: number; slug: string; title: string; authorNickname: string }[];
    };
    const work = catalog.payload.find((p) => p.authorNickname === 'sofia')!;
    expect(work).toBeDefined();
    expect(await productStatus(work.slug)).toBe(200);

    // 1. A guest reports it from its page.
    for (const width of [1280, 375]) {
      const guest = await personPage(width);
      await open(guest, `${base()}/products/${work.slug}`);
      await guest.getByRole('heading', { name: work.title }).waitFor();
      await guest.getByTestId('report-product').click();
      const dialog = guest.getByRole('dialog', { name: 'Report this content' });
      await dialog.getByLabel('Reason').selectOption('illegal_content');
      await dialog.getByLabel('What is wrong, and why (at least 20 characters)').fill('This picture copies a protected photograph of the harbour.');
      await dialog.getByLabel('Your e-mail address').fill(`guest.${width}@example.com`);
      await dialog.getByLabel('I report in good faith: what I say is accurate and complete.').check();
      await screenshot(guest, `report-dialog-${width}`, { fullPage: false });
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await dialog.getByRole('status').waitFor();
      await screenshot(guest, `report-sent-${width}`, { fullPage: false });
      await dialog.getByRole('status').getByRole('button', { name: 'Close' }).click();
      await guest.context().close();
    }

    // 2. Staff remove it, on the ground of the law, with an explanation for the author.
    const staff = await personPage();
    await signIn(staff, 'admin@example.com', base());
    await open(staff, `${base()}/admin/reports`);
    const group = staff.getByTestId('report-group').filter({ hasText: work.title });
    await group.getByText('This picture copies a protected photograph of the harbour.').first().waitFor();
    await group
      .getByLabel('Explanation for the author (at least 20 characters)')
      .fill('The picture reproduces a photograph whose rights holder did not agree.');
    await group.getByLabel('Decision').selectOption('remove');
    await group.getByLabel('Ground').selectOption('law');
    await screenshot(staff, 'admin-reports-queue');
    await group.getByRole('button', { name: 'Decide' }).click();
    await staff.getByText('The decision is recorded.').first().waitFor();
    // Removed everywhere: its page and the shop no longer have it.
    await expect.poll(() => productStatus(work.slug), { timeout: 20_000, interval: 500 }).toBe(404);

    // 3. The creator reads the statement of reasons and appeals.
    const creator = await personPage();
    await signIn(creator, 'seller@example.com', base());
    for (const width of [1280, 375]) {
      await creator.setViewportSize({ width, height: 900 });
      await open(creator, `${base()}/dashboard/reports`);
      const statement = creator.getByTestId('statement').filter({ hasText: work.title });
      await statement.getByText('Removed').first().waitFor();
      await statement.getByText('The law').waitFor();
      await statement.getByText('The picture reproduces a photograph whose rights holder did not agree.').waitFor();
      await statement.getByText('A person decided; no automated means were used.', { exact: false }).waitFor();
      await screenshot(creator, `statement-of-reasons-${width}`);
    }
    const statement = creator.getByTestId('statement').filter({ hasText: work.title });
    await statement.getByRole('button', { name: 'Appeal' }).click();
    await statement.getByLabel('Why the decision is wrong').fill('I took this photograph myself; the original file is attached to my listing.');
    await statement.getByRole('button', { name: 'Send appeal' }).click();
    await statement.getByText('A person will look at it again.', { exact: false }).waitFor();
    await screenshot(creator, 'statement-appealed');

    // 4. Staff reverse the removal on appeal: the work is back.
    await open(staff, `${base()}/admin/reports`);
    await staff.getByLabel('Status').selectOption('appealed');
    const appealed = staff.getByTestId('report-group').filter({ hasText: work.title });
    await appealed.getByText('I took this photograph myself', { exact: false }).waitFor();
    await appealed.getByLabel('Explanation for the author (at least 20 characters)').fill('The creator showed the original photograph: the report was wrong.');
    await appealed.getByRole('button', { name: 'Reverse and restore' }).click();
    await staff.getByText('The decision is recorded.').first().waitFor();
    await expect.poll(() => productStatus(work.slug), { timeout: 20_000, interval: 500 }).toBe(200);
    await open(creator, `${base()}/dashboard/reports`);
    await creator.getByTestId('statement').filter({ hasText: work.title }).getByText('The decision was reversed.', { exact: false }).waitFor();
  });
});
