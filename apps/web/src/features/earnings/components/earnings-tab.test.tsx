import type { Withdrawal } from '@atelier/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { EarningsTab } from './earnings-tab';

afterEach(() => vi.unstubAllGlobals());

const eur = (minor: number) => ({ amount: minor / 100, currency: 'EUR', currencySymbol: '€', amount_minor: minor });
const summary = (available: number, extra: object = {}) => ({
  pending: eur(1600),
  available: eur(available),
  withdrawn: eur(0),
  lifetime: eur(1600 + available),
  next_release_at: 1_795_000_000,
  held: eur(0),
  owed: eur(0),
  ...extra,
});
const contact = {
  first_name: 'Sofia',
  last_name: 'Ramos',
  email: 'seller@example.com',
  phone: '+351 912 345 678',
  address: 'Rua Augusta 1',
  city: 'Lisbon',
  post_code: '1100-048',
  country: 620,
  currency: 'EUR',
};
const countries = [{ id: 620, code: 'PT', title: 'Portugal' }];
const withdrawalOf = (id: number, status: Withdrawal['status'], minor: number, failure_reason: string | null = null): Withdrawal => ({
  id,
  status,
  amount: eur(minor),
  method: 'card',
  destination: 'visa •••• 4242',
  failure_reason,
  created_at: 1_790_000_000 + id,
});
const nextYear = String(new Date().getFullYear() + 1);

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const stepUpAnswer = () => jsonAnswer(403, { status: 'ERROR', message: 'Please confirm it is you.', errors: { step_up: ['Please confirm it is you.'] } });

describe('Earnings tab (issue 19)', () => {
  it('shows pending, available and withdrawn, the next release, and every withdrawal with its status and a failure’s reason', async () => {
    fakeApi({
      'GET /api/earnings': () => okAnswer(summary(2400, { withdrawn: eur(5000) })),
      'GET /api/earnings/withdrawals': () =>
        okAnswer([withdrawalOf(3, 'paid', 3000), withdrawalOf(2, 'failed', 2000, 'The card was declined.'), withdrawalOf(1, 'paid', 2000)]),
    });
    renderWithApp(<EarningsTab />, { path: '/dashboard/earnings' });
    expect((await screen.findByTestId('earnings-available')).textContent).toContain('€24.00');
    expect(screen.getByTestId('earnings-pending').textContent).toContain('€16.00');
    expect(screen.getByTestId('earnings-pending').textContent).toContain('Next release:');
    expect(screen.getByTestId('earnings-withdrawn').textContent).toContain('€50.00');
    const rows = await screen.findAllByTestId('withdrawal-row');
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['paid', 'failed', 'paid']);
    expect(within(rows[0]!).getByText('Paid')).toBeTruthy();
    expect(within(rows[1]!).getByText('Failed')).toBeTruthy();
    expect(within(rows[1]!).getByText('The card was declined.')).toBeTruthy();
    expect(within(rows[0]!).getByText('visa •••• 4242')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Withdraw' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the amounts in the visitor’s currency', async () => {
    localStorage.setItem('selectedCurrency', 'JPY');
    const calls = fakeApi({
      'GET /api/earnings': ({ url }) =>
        url.searchParams.get('currency') === 'JPY'
          ? okAnswer({ ...summary(2400), available: { amount: 3888, currency: 'JPY', currencySymbol: '¥', amount_minor: 2400 } })
          : okAnswer(summary(2400)),
      'GET /api/earnings/withdrawals': () => okAnswer([]),
    });
    renderWithApp(<EarningsTab />, { path: '/dashboard/earnings' });
    await waitFor(() => expect(screen.getByTestId('earnings-available').textContent).toContain('¥3,888'));
    expect(calls.find((c) => c.path === '/api/earnings')).toBeTruthy();
    expect(await screen.findByText('No withdrawals yet.')).toBeTruthy();
    localStorage.removeItem('selectedCurrency');
  });

  it('withdraws to a card: amount, contact details, card, the step-up code, then the withdrawal shows as processing', async () => {
    let withdrawals: Withdrawal[] = [];
    let fresh = false;
    const calls = fakeApi({
      'GET /api/earnings': () => okAnswer(summary(withdrawals.length ? 0 : 2400, withdrawals.length ? { withdrawn: eur(2400) } : {})),
      'GET /api/earnings/withdrawals': () => okAnswer(withdrawals),
      'GET /api/offer/contact-details': () => okAnswer(contact),
      'GET /api/countries': () => okAnswer(countries),
      'POST /api/earnings/withdraw': () => {
        if (!fresh) return stepUpAnswer();
        withdrawals = [withdrawalOf(9, 'processing', 2400)];
        return okAnswer({ withdrawal: withdrawals[0] }, { message: 'Your withdrawal is on its way.' });
      },
      'POST /api/user/step-up': () => {
        fresh = true;
        return jsonAnswer(200, { status: 'OK', message: 'Thank you. You can go on.' });
      },
    });
    renderWithApp(<EarningsTab />, { path: '/dashboard/earnings' });
    fireEvent.click(await screen.findByRole('button', { name: 'Withdraw' }));

    const amount = await screen.findByRole('dialog', { name: 'Withdraw earnings' });
    expect(field('Amount (€)').value).toBe('24.00');
    type('Amount (€)', '30');
    fireEvent.click(within(amount).getByRole('button', { name: 'Continue' }));
    expect(await within(amount).findByText('You can withdraw at most €24.00.')).toBeTruthy();
    type('Amount (€)', '24');
    fireEvent.click(within(amount).getByRole('button', { name: 'Continue' }));

    await screen.findByRole('dialog', { name: 'Contact details' });
    await waitFor(() => expect(field('First name').value).toBe('Sofia'));
    await screen.findByRole('option', { name: 'Portugal' });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    const card = await screen.findByRole('dialog', { name: 'Payment details · Credit Card' });
    expect(within(card).getByText('You receive €24.00')).toBeTruthy();
    type('Card number', '4242 4242 4242 4242');
    type('Expiry month', '12');
    type('Expiry year', nextYear);
    fireEvent.click(screen.getByLabelText('I agree to the terms and conditions'));
    fireEvent.click(within(card).getByRole('button', { name: 'Withdraw' }));

    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    fireEvent.change(within(stepUp).getByLabelText('Code from the app'), { target: { value: '123456' } });
    fireEvent.click(within(stepUp).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByRole('dialog', { name: 'Your withdrawal is on its way' })).toBeTruthy();
    const sent = calls.filter((c) => c.path === '/api/earnings/withdraw');
    expect(sent).toHaveLength(2);
    // The retry after the code is the same request: the same key, the same body.
    expect(sent[1]!.headers['Idempotency-Key']).toBe(sent[0]!.headers['Idempotency-Key']);
    expect(sent[1]!.body).toMatchObject({
      method: 'card',
      amount: '24.00',
      card_number: '4242424242424242',
      expire_month: 12,
      expire_year: Number(nextYear),
      terms: true,
      first_name: 'Sofia',
      country: 620,
    });
    expect(sent[1]!.body).not.toHaveProperty('paymentType');
    fireEvent.click(screen.getByText('Close', { selector: 'button' }));
    const row = await screen.findByTestId('withdrawal-row');
    expect(within(row).getByText('Processing')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('earnings-withdrawn').textContent).toContain('€24.00'));
    expect((screen.getByRole('button', { name: 'Withdraw' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('A withdrawal is on its way. You can start the next one when it is done.')).toBeTruthy();
  });

  it('withdraws by bank transfer and shows the server’s refusal of the amount', async () => {
    fakeApi({
      'GET /api/earnings': () => okAnswer(summary(900)),
      'GET /api/earnings/withdrawals': () => okAnswer([]),
      'GET /api/offer/contact-details': () => okAnswer(contact),
      'GET /api/countries': () => okAnswer(countries),
      'POST /api/earnings/withdraw': () =>
        jsonAnswer(422, { status: 'ERROR', message: 'The given data was invalid.', errors: { amount: ['The minimum withdrawal is 10.00 €.'] } }),
    });
    renderWithApp(<EarningsTab />, { path: '/dashboard/earnings' });
    fireEvent.click(await screen.findByRole('button', { name: 'Withdraw' }));
    await screen.findByRole('dialog', { name: 'Withdraw earnings' });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('dialog', { name: 'Contact details' });
    await waitFor(() => expect(field('First name').value).toBe('Sofia'));
    await screen.findByRole('option', { name: 'Portugal' });
    fireEvent.click(screen.getByLabelText('Bank transfer (SEPA)'));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const bank = await screen.findByRole('dialog', { name: 'Payment details · Bank transfer (SEPA)' });
    type('IBAN', 'DE89 3704 0044 0532 0130 00');
    fireEvent.click(within(bank).getByRole('button', { name: 'Withdraw' }));
    expect(await within(bank).findByText('The minimum withdrawal is 10.00 €.')).toBeTruthy();
  });

  it('leaves Withdraw off with nothing available', async () => {
    fakeApi({
      'GET /api/earnings': () => okAnswer(summary(0, { pending: eur(0), next_release_at: null })),
      'GET /api/earnings/withdrawals': () => okAnswer([]),
    });
    renderWithApp(<EarningsTab />, { path: '/dashboard/earnings' });
    expect(await screen.findByText('Nothing is clearing right now.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Withdraw' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Earnings tab (issue 30)', () => {
  it('shows what is on hold for a refund request and a debt; neither is offered for withdrawal', async () => {
    fakeApi({
      'GET /api/earnings': () => okAnswer(summary(500, { held: eur(960), owed: eur(300) })),
      'GET /api/earnings/withdrawals': () => okAnswer([]),
    });
    renderWithApp(<EarningsTab />, { path: '/dashboard/earnings' });
    const held = await screen.findByTestId('earnings-held');
    expect(held.textContent).toContain('On hold for a refund request');
    expect(held.textContent).toContain('€9.60');
    expect(screen.getByTestId('earnings-owed').textContent).toContain('You owe');
    expect(screen.getByTestId('earnings-owed').textContent).toContain('€3.00');
    expect(screen.getByTestId('earnings-available').textContent).toContain('€5.00');
  });

  it('shows no hold and no debt when there are none', async () => {
    fakeApi({ 'GET /api/earnings': () => okAnswer(summary(500)), 'GET /api/earnings/withdrawals': () => okAnswer([]) });
    renderWithApp(<EarningsTab />, { path: '/dashboard/earnings' });
    await screen.findByTestId('earnings-available');
    expect(screen.queryByTestId('earnings-held')).toBeNull();
    expect(screen.queryByTestId('earnings-owed')).toBeNull();
  });
});
