import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { ReconciliationTile } from './reconciliation-tile';

afterEach(() => vi.unstubAllGlobals());

const green = {
  ok: true,
  checked_at: 1_790_000_000,
  transactions: 12,
  accounts: 5,
  unbalanced_transactions: [],
  drifted_accounts: [],
  unsettled_generations: [],
  unbalanced_earnings: [],
  unmatched_earnings_lines: [],
  dispute_hold_minor: 0,
  mismatched_disputes: [],
  total_minor: 0,
  first_mismatch: null,
};
const red = {
  ...green,
  ok: false,
  drifted_accounts: [3],
  unsettled_generations: [],
  total_minor: 100,
  first_mismatch: { kind: 'account', id: 3, actual_minor: 1000, expected_minor: 900 },
};

/** What the tile's alert says of a reconciliation that found `mismatch`. */
async function alertFor(mismatch: object) {
  fakeApi({ 'GET /api/admin/ledger/reconciliation': () => okAnswer({ ...green, ok: false, ...mismatch }) });
  renderWithApp(<ReconciliationTile />);
  return (await screen.findByRole('alert')).textContent;
}

describe('Reconciliation tile', () => {
  it('is green when everything reconciles', async () => {
    fakeApi({ 'GET /api/admin/ledger/reconciliation': () => okAnswer(green) });
    renderWithApp(<ReconciliationTile />);
    const verdict = await screen.findByText('Everything reconciles');
    expect(verdict.closest('section')?.getAttribute('data-state')).toBe('green');
    expect(screen.getByText(/12 transactions, 5 accounts/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('turns red with the first mismatch, and checks again on demand', async () => {
    let answer: object = green;
    const calls = fakeApi({ 'GET /api/admin/ledger/reconciliation': () => okAnswer(answer) });
    renderWithApp(<ReconciliationTile />);
    await screen.findByText('Everything reconciles');
    answer = red;
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    const verdict = await screen.findByText('Mismatch found');
    expect(verdict.closest('section')?.getAttribute('data-state')).toBe('red');
    expect(screen.getByRole('alert').textContent).toBe('Account #3 shows €10.00, but its journal adds up to €9.00.');
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/admin/ledger/reconciliation')).toHaveLength(2));
  });

  it('names an unbalanced transaction', async () => {
    expect(await alertFor({ unbalanced_transactions: [8], first_mismatch: { kind: 'transaction', id: 8, actual_minor: 300, expected_minor: 0 } })).toBe(
      'Journal transaction #8 does not sum to zero (it sums to €3.00).',
    );
  });

  it('hole 4: names a generation charged with neither an image nor a refund', async () => {
    expect(await alertFor({ unsettled_generations: [4], first_mismatch: { kind: 'generation', id: 4, actual_minor: 100, expected_minor: 0 } })).toBe(
      'Image generation 4 was charged €1.00 but has neither an image nor a refund.',
    );
  });

  it('names a user whose earnings do not add up to what flowed in and out (issue 19)', async () => {
    expect(await alertFor({ unbalanced_earnings: [7], first_mismatch: { kind: 'earnings', id: 7, actual_minor: 900, expected_minor: 800 } })).toBe(
      "User #7's earnings and receivable show €9.00, but their sales, refunds, withdrawals and disputes add up to €8.00.",
    );
  });

  it('names a disputes hold that differs from the open disputes', async () => {
    expect(await alertFor({ dispute_hold_minor: 500, first_mismatch: { kind: 'dispute_hold', id: 2, actual_minor: 500, expected_minor: 0 } })).toBe(
      'The disputes hold shows €5.00, but the open disputes add up to €0.00.',
    );
  });

  it('names a dispute whose own hold is wrong (issue 29)', async () => {
    expect(await alertFor({ mismatched_disputes: [6], first_mismatch: { kind: 'dispute', id: 6, actual_minor: 3000, expected_minor: 1500 } })).toBe(
      'Dispute #6 put €30.00 on hold, but its amount is €15.00, it still holds money after it closed, or its payment is held beyond its amount.',
    );
  });
});
