import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { Money } from './money';

afterEach(() => vi.unstubAllGlobals());

const eur = (minor: number) => ({ amount: minor / 100, currency: 'EUR', currencySymbol: '€', amount_minor: minor });
const dispute = {
  id: 3,
  provider: 'sandbox',
  provider_dispute_id: 'dp_sandbox_41',
  deposit_id: 41,
  user: { id: 8, nickname: 'ines', email: 'ines@example.test' },
  status: 'open',
  reason: 'fraudulent',
  amount: eur(2500),
  from_balance_minor: 1000,
  from_receivable_minor: 1500,
  created_at: 1_790_000_000,
  closed_at: null,
};

describe('Money screen: disputes and receivables (issue 19)', () => {
  it('lists open disputes and receivables in the visitor currency with the EUR cents underneath, and filters by status', async () => {
    const calls = fakeApi({
      'GET /api/admin/disputes': ({ url }) => okAnswer(url.searchParams.get('status') === 'won' ? [] : [dispute]),
      'GET /api/admin/receivables': () => okAnswer([{ account_id: 12, user: dispute.user, amount: eur(-1500) }]),
      'GET /api/admin/ledger/accounts': () => okAnswer([]),
      'GET /api/admin/ledger/journal': () => okAnswer([]),
    });
    renderWithApp(<Money />);
    const disputes = await screen.findByRole('table', { name: 'Disputes (chargebacks)' });
    const row = (await within(disputes).findByText('dp_sandbox_41')).closest('tr')!;
    expect(within(row).getByText('Open')).toBeTruthy();
    expect(within(row).getByText('€25.00')).toBeTruthy();
    expect(within(row).getByText('2500 EUR cents')).toBeTruthy();
    expect(within(row).getByText('€15.00')).toBeTruthy();

    const receivables = await screen.findByRole('table', { name: 'Receivables' });
    expect(within(receivables).getByText('-€15.00')).toBeTruthy();
    expect(within(receivables).getByText('-1500 EUR cents')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'won' } });
    expect(await screen.findByText('No disputes.')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.path === '/api/admin/disputes' && c.headers['X-Currency'] === 'EUR')).toBe(true));
  });

  it('issue 30: lists deposits whose payment event did not match them, with what the provider reported', async () => {
    const reason = 'The provider reported 100 EUR paid; the deposit expects 2500 EUR (minor units). Nothing was credited.';
    fakeApi({
      'GET /api/admin/disputes': () => okAnswer([]),
      'GET /api/admin/receivables': () => okAnswer([]),
      'GET /api/admin/deposits/flagged': () =>
        okAnswer([
          {
            id: 77,
            provider: 'stripe',
            user: dispute.user,
            status: 'processing',
            currency_amount_minor: 2500,
            currency: 'EUR',
            reason,
            flagged_at: 1_790_000_000,
          },
        ]),
      'GET /api/admin/ledger/accounts': () => okAnswer([]),
      'GET /api/admin/ledger/journal': () => okAnswer([]),
    });
    renderWithApp(<Money />);
    const table = await screen.findByRole('table', { name: 'Deposits whose payment did not match' });
    const row = (await within(table).findByText(reason)).closest('tr')!;
    expect(within(row).getByText('@ines', { exact: false })).toBeTruthy();
    expect(within(row).getByText('processing')).toBeTruthy();
  });

  it('says when a table cannot be loaded, as an alert, and when one has nothing to list', async () => {
    fakeApi({
      'GET /api/admin/disputes': () => okAnswer([]),
      'GET /api/admin/receivables': () => okAnswer([]),
      'GET /api/admin/ledger/accounts': () => jsonAnswer(400, { status: 'ERROR', message: 'The ledger is being reconciled.' }),
      'GET /api/admin/ledger/journal': () => okAnswer([]),
    });
    renderWithApp(<Money />);
    expect((await screen.findByText('The ledger is being reconciled.')).getAttribute('role')).toBe('alert');
    expect(await screen.findByText('No disputes.')).toBeTruthy();
    expect(screen.getByText('Nobody owes anything.')).toBeTruthy();
    expect(screen.getByText('No journal entries match.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
