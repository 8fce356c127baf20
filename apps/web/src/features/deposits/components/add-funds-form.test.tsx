import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { leaveApp, readReturn } from '../return-to';
import { AddFundsForm } from './add-funds-form';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const methods = [
  { id: 'sandbox-card', title: 'Card (test payment)', type: 'redirect' },
  { id: 'sandbox-widget', title: 'Card widget (test payment)', type: 'widget' },
];
const amountRules = ({ body }: { body: unknown }) => {
  const amount = Number((body as { amount: string }).amount);
  if (amount < 5)
    return jsonAnswer(422, { status: 'ERROR', message: 'The amount must be at least 5.00 €.', errors: { amount: ['The amount must be at least 5.00 €.'] } });
  return okAnswer(undefined, { message: 'The amount is valid.' });
};
const base = {
  'GET /api/balance': () => okAnswer({ amount: 3, currency: 'EUR', currencySymbol: '€', amount_minor: 300 }),
  'POST /api/deposit/validate-amount': amountRules,
  'POST /api/deposit/validate': () => okAnswer(methods),
};

describe('Add Funds', () => {
  it('checks the amount as it is typed: the server’s message under the amount, then the payment methods', async () => {
    fakeApi(base);
    renderWithApp(<AddFundsForm />, { path: '/deposit/create' });
    expect(await screen.findByText(/Top up your Atelier Credits balance/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '2' } });
    expect(await screen.findByText('The amount must be at least 5.00 €.')).toBeTruthy();
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: 'Continue to payment' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '25' } });
    expect(await screen.findByRole('radio', { name: 'Card (test payment)' })).toBeTruthy();
    expect(screen.queryByText('The amount must be at least 5.00 €.')).toBeNull();
  });

  it('a validation answer without a field message says Validation failed', async () => {
    fakeApi({ ...base, 'POST /api/deposit/validate-amount': () => jsonAnswer(422, { status: 'ERROR', message: '', errors: {} }) });
    renderWithApp(<AddFundsForm />, { path: '/deposit/create' });
    fireEvent.change(await screen.findByLabelText('Amount'), { target: { value: '10' } });
    expect(await screen.findByText('Validation failed')).toBeTruthy();
  });

  it('checks out and follows the redirect, remembering the page to come back to', async () => {
    const calls = fakeApi({
      ...base,
      'POST /api/deposit/checkout': () => okAnswer({ order_id: 12, status: 'processing', redirect_url: 'http://localhost/api/payments/sandbox/pay/t' }),
    });
    const leave = vi.spyOn(leaveApp, 'to').mockImplementation(() => {});
    renderWithApp(<AddFundsForm />, { path: '/deposit/create?amount=7.50&currency=EUR&return=%2Fproducts%2Fharbour' });
    expect(await screen.findByText('You need €7.50 more for your purchase. After paying you can go straight back to it.')).toBeTruthy();
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('7.50');
    await screen.findByRole('radio', { name: 'Card (test payment)' });
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('http://localhost/api/payments/sandbox/pay/t'));
    expect(calls.find((c) => c.path === '/api/deposit/checkout')!.body).toMatchObject({ amount: '7.50', currency: 'EUR', payment_method: 'sandbox-card' });
    expect(readReturn()).toBe('/products/harbour');
    expect(calls.find((c) => c.path === '/api/deposit/checkout')!.headers['Idempotency-Key']).toBeTruthy();
  });

  it('a refused checkout shows the server’s message, or Checkout failed', async () => {
    fakeApi({ ...base, 'POST /api/deposit/checkout': () => jsonAnswer(500, {}) });
    renderWithApp(<AddFundsForm />, { path: '/deposit/create?amount=10' });
    await screen.findByRole('radio', { name: 'Card (test payment)' });
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(await screen.findByText('Checkout failed')).toBeTruthy();
  });
});
