import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { TaxAdmin } from './tax-admin';

afterEach(() => vi.unstubAllGlobals());

const report = {
  quarter: '2026-Q4',
  from: '2026-10-01',
  to: '2027-01-01',
  rows: [{ country: 'DE', rate: 19, net_minor: 1597, vat_minor: 303, sales: 1, refunds: 0 }],
  total_vat_minor: 303,
  ledger_vat_minor: 303,
};

describe('Back office › Tax', () => {
  it('shows the OSS report beside the ledger’s VAT, the rates, and adds a rate with the server’s message on a refusal', async () => {
    const calls = fakeApi({
      'GET /api/admin/tax/oss': () => okAnswer(report),
      'GET /api/admin/tax/rates': () => okAnswer([{ id: 1, country: 'DE', rate: 19, valid_from: '2021-01-01' }]),
      'POST /api/admin/tax/rates': () =>
        jsonAnswer(422, {
          status: 'ERROR',
          message: 'This country already has a rate from this day: change that one instead.',
          errors: { valid_from: ['This country already has a rate from this day: change that one instead.'] },
        }),
    });
    renderWithApp(<TaxAdmin />);
    const oss = await screen.findByTestId('oss-table');
    expect(oss.textContent).toContain('DE19 %15.97 €3.03 €10');
    expect(screen.getByTestId('oss-ledger').textContent).toBe('VAT in the report: 3.03 €; in the ledger’s VAT accounts: 3.03 €.');
    await waitFor(() => expect(screen.getByTestId('rates-table').textContent).toContain('DE19 %2021-01-01'));
    fireEvent.click(screen.getByRole('button', { name: 'Add a rate' }));
    const form = screen.getByTestId('rate-form');
    fireEvent.change(form.querySelectorAll('input')[0]!, { target: { value: 'de' } });
    fireEvent.change(form.querySelectorAll('input')[1]!, { target: { value: '19' } });
    fireEvent.change(form.querySelectorAll('input')[2]!, { target: { value: '2021-01-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This country already has a rate from this day: change that one instead.')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/admin/tax/rates' && c.method === 'POST')?.body).toEqual({ country: 'DE', rate: 19, valid_from: '2021-01-01' });
  });
});
