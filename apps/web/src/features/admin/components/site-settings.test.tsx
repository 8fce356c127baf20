import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { SiteSettings } from './site-settings';

afterEach(() => vi.unstubAllGlobals());

const settings = {
  is_reg_enabled: true,
  is_email_verification_enabled: false,
  internal_currency_name: 'Atelier Credits',
  support_email: '',
  copyright: '',
  commission_percent: 20,
  deposit_min: 5,
  deposit_max: 500,
  generation_price: 1,
  earnings_clearing_days: 7,
  withdrawal_min: 10,
};

describe('Site settings', () => {
  it('issue 19: staff set the earnings clearing period and the smallest withdrawal', async () => {
    const calls = fakeApi({
      'GET /api/admin/settings': () => okAnswer(settings),
      'PATCH /api/admin/settings': ({ body }) => okAnswer({ ...settings, ...(body as object) }),
    });
    renderWithApp(<SiteSettings />, { path: '/admin/site' });
    const days = (await screen.findByLabelText('Earnings clearing period (days)')) as HTMLInputElement;
    expect(days.value).toBe('7');
    expect((screen.getByLabelText('Smallest withdrawal (EUR)') as HTMLInputElement).value).toBe('10');
    fireEvent.change(days, { target: { value: '0' } });
    fireEvent.change(screen.getByLabelText('Smallest withdrawal (EUR)'), { target: { value: '12,50' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Save' })[0]!);
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')).toBeTruthy());
    expect(calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({ earnings_clearing_days: 0, withdrawal_min: 12.5, commission_percent: 20 });
  });
});
