import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { siteSettings } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { EarningsTab } from './earnings-tab';

afterEach(() => vi.unstubAllGlobals());

const eur = (minor: number) => ({ amount: minor / 100, currency: 'EUR', currencySymbol: '€', amount_minor: minor });

describe('Earnings tab: before the form (issue 31)', () => {
  it('tells the smallest withdrawal (the site setting) and when card and bank payouts arrive', async () => {
    fakeApi({
      'GET /api/settings': () => okAnswer(siteSettings({ withdrawal_min: 15 })),
      'GET /api/earnings': () =>
        okAnswer({ pending: eur(0), available: eur(2000), held: eur(0), owed: eur(0), withdrawn: eur(0), lifetime: eur(2000), next_release_at: null }),
      'GET /api/earnings/withdrawals': () => okAnswer([]),
    });
    renderWithApp(<EarningsTab />);
    expect((await screen.findByTestId('earnings-schedule')).textContent).toBe(
      'Withdrawals start at €15.00. A card payout arrives within 3–5 business days, a bank transfer within 5 business days.',
    );
    // Issue 31 item 2: the note promises only what is true: available earnings are withdrawn, not shown as balance in the shop.
    const note = screen.getByText(/then available to withdraw/);
    expect(note.textContent).not.toMatch(/spend it in the shop/);
    // The minimum and the schedule come before the Withdraw form opens (no dialog yet).
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
