import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, open, screenshot } from './browser';
import { personContext, signIn } from './flows';
import { ownServer } from './server';

/**
 * Creator bundles in the browser (issue 34), on a server of its own (a new pack must not change the
 * shared server's shop): the demo creator picks two works on the Bundles tab, sees their sum and the
 * highest bundle price, and proposes the bundle at that price; staff approve it in the back office; the
 * pack page shows the saving.
 */
const baseUrl = ownServer('bundles');
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const personPage = async () => (await personContext(browser, baseUrl())).page;

describe('bundles in the browser', () => {
  it('issue 34: a creator proposes a bundle at the highest price allowed, staff approve it, the pack page shows the saving', { timeout: 240_000 }, async () => {
    const seller = await personPage();
    await signIn(seller, 'seller@example.com', baseUrl());
    await open(seller, `${baseUrl()}/dashboard/bundles`);
    const tab = seller.getByTestId('bundles-tab');
    await tab.getByRole('heading', { name: 'Bundles' }).waitFor();
    const boxes = tab.getByRole('checkbox');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    const sum = tab.getByTestId('bundle-sum');
    await sum.getByText(/^2 works, /).waitFor();
    const text = (await sum.textContent())!;
    const [, alone, max] = /^2 works, €([\d,.]+) one by one: the bundle may cost at most €([\d,.]+)\.$/.exec(text)!;
    expect(Math.floor(Number(alone!.replace(/,/g, '')) * 90) / 100).toBeCloseTo(Number(max!.replace(/,/g, '')), 2);

    await tab.getByLabel('Title').fill('E2E two together');
    await tab.getByLabel('Bundle price (EUR)').fill(max!.replace(/,/g, ''));
    await expectAccessible(seller, 'the Bundles tab');
    await screenshot(seller, 'bundles-tab');
    await tab.getByRole('button', { name: 'Propose bundle' }).click();
    const row = tab.locator('.bundle-row', { hasText: 'E2E two together' });
    await row.getByText('Waiting for review').waitFor();

    const admin = await personPage();
    await signIn(admin, 'admin@example.com', baseUrl());
    await open(admin, `${baseUrl()}/admin/bundles`);
    const card = admin.getByTestId('bundle-review').locator('.bundle-row', { hasText: 'E2E two together' });
    await card.waitFor();
    await expectAccessible(admin, 'the back office bundle queue');
    await screenshot(admin, 'bundles-review');
    await card.getByRole('button', { name: 'Approve' }).click();
    await admin.getByText('The bundle is on sale as a pack.').waitFor();

    await open(seller, `${baseUrl()}/dashboard/bundles`);
    await row.getByText('On sale').waitFor();
    await row.getByRole('link', { name: 'View the pack' }).click();
    await seller.waitForURL(/\/packs\//);
    const saving = seller.getByTestId('pack-saving');
    await saving.waitFor();
    expect(await saving.textContent()).toMatch(/^You save €[\d,.]+ \(10 %\) against 2 works bought one by one: €/);
    await screenshot(seller, 'bundles-pack-page');
  });
});
