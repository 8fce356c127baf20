import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { DepositHistory } from './deposit-history';

afterEach(() => vi.unstubAllGlobals());

describe('deposit history', () => {
  it('lists deposits newest first with date, amount, method and status', async () => {
    const at = new Date(2026, 10, 22, 6, 37).getTime() / 1000;
    fakeApi({
      'GET /api/deposit/history': () =>
        okAnswer([
          {
            id: 2,
            amount: 20,
            currency: 'EUR',
            currencySymbol: '€',
            status: 'failed',
            payment_method: 'sandbox-card',
            payment_method_title: 'Card (test payment)',
            created_at: at,
          },
          {
            id: 1,
            amount: 3000,
            currency: 'JPY',
            currencySymbol: '¥',
            status: 'success',
            payment_method: 'sandbox-card',
            payment_method_title: 'Card (test payment)',
            created_at: at,
          },
        ]),
    });
    renderWithApp(<DepositHistory />);
    const rows = await screen.findAllByTestId('deposit-row');
    expect(rows.map((r) => r.textContent)).toEqual(['22.11.2026 06:37€20.00Card (test payment)Failed', '22.11.2026 06:37¥3,000Card (test payment)Successful']);
  });

  it('issue 31: a card checkout left open for more than 30 minutes reads Expired; a recent one Processing', async () => {
    const now = Math.floor(Date.now() / 1000);
    const row = (id: number, created_at: number) => ({
      id,
      amount: 20,
      currency: 'EUR',
      currencySymbol: '€',
      status: 'processing',
      payment_method: 'sandbox-card',
      payment_method_title: 'Card (test payment)',
      created_at,
    });
    fakeApi({ 'GET /api/deposit/history': () => okAnswer([row(2, now - 60), row(1, now - 31 * 60)]) });
    renderWithApp(<DepositHistory />);
    const rows = await screen.findAllByTestId('deposit-row');
    expect(rows.map((r) => r.querySelector('.deposit-status')?.textContent)).toEqual(['Processing', 'Expired']);
  });

  it('has an empty state and an error state', async () => {
    fakeApi({ 'GET /api/deposit/history': () => okAnswer([]) });
    const { unmount } = renderWithApp(<DepositHistory />);
    expect(await screen.findByText('No deposits yet.')).toBeTruthy();
    unmount();
    fakeApi({ 'GET /api/deposit/history': () => jsonAnswer(401, { status: 'ERROR', message: 'Unauthenticated.' }) });
    renderWithApp(<DepositHistory />);
    expect(await screen.findByText('Failed to fetch deposit history')).toBeTruthy();
  });
});
