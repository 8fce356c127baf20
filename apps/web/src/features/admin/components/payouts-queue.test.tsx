import type { Payout } from '@atelier/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { PayoutsQueue } from './payouts-queue';

afterEach(() => vi.unstubAllGlobals());

const payout: Payout = {
  id: 5,
  kind: 'offer',
  offer_id: 9,
  method: 'sepa',
  amount: 45,
  currency: 'EUR',
  status: 'processing',
  destination: 'DE89 •••• 3000',
  failure_reason: null,
  provider: 'manual',
  awaits_staff: true,
  transfer_reference: null,
  provider_state: null,
  created_at: 1_790_000_000,
};

describe('Payouts queue', () => {
  it('hole 2: shows masked details, marks a payout paid with the transfer reference, or failed with a reason', async () => {
    const calls = fakeApi({
      'GET /api/admin/payouts': () => okAnswer([payout]),
      'POST /api/admin/payouts/5/complete': ({ body }) => okAnswer({ ...payout, status: (body as { outcome: string }).outcome }),
    });
    renderWithApp(<PayoutsQueue />);
    const row = (await screen.findByText('DE89 •••• 3000')).closest('tr')!;
    expect(within(row).getByText('€45.00')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/admin/payouts')).toBeDefined();

    // 'Mark paid' asks for the bank's reference first; confirming without one is not possible.
    fireEvent.click(within(row).getByRole('button', { name: 'Mark paid' }));
    const confirm = within(row).getByRole('button', { name: 'Confirm paid' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(row).getByLabelText('Transfer reference'), { target: { value: ' SEPA-2026-0042 ' } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ outcome: 'paid', reference: 'SEPA-2026-0042' });

    fireEvent.click(within(row).getByRole('button', { name: 'Mark failed' }));
    fireEvent.change(within(row).getByLabelText('Why it failed'), { target: { value: 'Account closed' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Mark failed' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'POST')[1]!.body).toEqual({ outcome: 'failed', reason: 'Account closed' });
  });

  it("hole 2: shows a paid payout's reference, and offers no buttons for a payout a provider is sending", async () => {
    fakeApi({
      'GET /api/admin/payouts': () =>
        okAnswer([
          { ...payout, id: 6, status: 'paid', awaits_staff: false, transfer_reference: 'BANK-77', destination: 'DE89 •••• 0001' },
          { ...payout, id: 7, method: 'card', provider: 'stripe', awaits_staff: false, destination: 'visa •••• 4242' },
        ]),
    });
    renderWithApp(<PayoutsQueue />);
    const paid = (await screen.findByText('DE89 •••• 0001')).closest('tr')!;
    expect(within(paid).getByText('Ref. BANK-77')).toBeTruthy();
    const sending = screen.getByText('visa •••• 4242').closest('tr')!;
    expect(within(sending).getByText('Being sent by stripe')).toBeTruthy();
    expect(within(sending).queryByRole('button')).toBeNull();
  });

  it('issue 30: a payout that needs review shows the provider state, asks the provider again, and shows why it cannot be failed yet', async () => {
    const review = {
      ...payout,
      id: 8,
      method: 'card' as const,
      provider: 'stripe',
      status: 'needs_review' as const,
      provider_state: 'unknown' as const,
      destination: 'visa •••• 1881',
    };
    const calls = fakeApi({
      'GET /api/admin/payouts': () => okAnswer([review]),
      'POST /api/admin/payouts/8/reconcile': () => okAnswer(review),
      'POST /api/admin/payouts/8/complete': () =>
        jsonAnswer(409, {
          status: 'ERROR',
          message:
            'The provider may have paid this payout: it can be marked failed only once the provider has said it did not pay. Ask the provider again, or wait for its answer.',
        }),
    });
    renderWithApp(<PayoutsQueue />);
    const row = (await screen.findByText('visa •••• 1881')).closest('tr')!;
    expect(within(row).getByText('Needs review')).toBeTruthy();
    expect(within(row).getByText('The job gave up: the provider may have paid. Its answer is not known yet.')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Ask the provider again' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/admin/payouts/8/reconcile')).toBe(true));
    fireEvent.click(within(row).getByRole('button', { name: 'Mark failed' }));
    fireEvent.change(within(row).getByLabelText('Why it failed'), { target: { value: 'Gave up' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Mark failed' }));
    expect(await within(row).findByText(/it can be marked failed only once the provider has said it did not pay/)).toBeTruthy();
  });

  it('links the SEPA export with the platform IBAN', async () => {
    fakeApi({ 'GET /api/admin/payouts': () => okAnswer([]) });
    renderWithApp(<PayoutsQueue />);
    expect(await screen.findByText('No payouts with this status.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText("The platform's IBAN"), { target: { value: 'DE89370400440532013000' } });
    expect(screen.getByRole('link', { name: 'Download XML' }).getAttribute('href')).toBe(
      '/api/admin/payouts/sepa-export?debtor_iban=DE89370400440532013000&debtor_name=Atelier',
    );
  });
});
