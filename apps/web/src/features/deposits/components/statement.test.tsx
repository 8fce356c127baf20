import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, loadServerWords } from '../../../lib/i18n';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { Statement } from './statement';

const line = (id: number, kind: string, description: string, minor: number, after: number, link: string | null, code?: string) => ({
  id,
  created_at: 1_790_000_000 + id,
  kind,
  description,
  ...(code ? { description_code: code } : {}),
  amount: minor / 100,
  amount_minor: minor,
  balance_after: after / 100,
  balance_after_minor: after,
  currency: 'EUR',
  display: { amount: minor / 100, balance_after: after / 100, currency: 'EUR', currencySymbol: '€' },
  link,
});

describe('Statement tab (issue 18)', () => {
  it('lists every movement with its kind, amount, running balance and link, and offers the CSV', async () => {
    fakeApi({
      'GET /api/balance/statement': () =>
        okAnswer(
          [
            line(3, 'generation', 'Image generation', -150, 1350, '/dashboard/orders'),
            line(2, 'unlock', 'Image unlocked in a chat', -500, 1500, '/dashboard/chat?chat=4'),
            line(1, 'deposit', 'Funds added by card', 2000, 2000, '/dashboard/deposits'),
          ],
          { meta: { total: 3, pages: 1, page: 1, limit: 20 } },
        ),
    });
    renderWithApp(<Statement />, { path: '/dashboard/statement' });
    const rows = await screen.findAllByTestId('statement-row');
    expect(rows.map((r) => r.getAttribute('data-kind'))).toEqual(['generation', 'unlock', 'deposit']);
    expect(within(rows[0]!).getByText('Image generation', { selector: 'strong' })).toBeTruthy();
    expect(within(rows[1]!).getByRole('link', { name: 'Image unlocked in a chat' }).getAttribute('href')).toBe('/dashboard/chat?chat=4');
    expect(rows[2]!.textContent).toContain('+');
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toMatch(/^\/api\/balance\/statement\.csv/);
  });

  it('says so when there is nothing yet', async () => {
    fakeApi({ 'GET /api/balance/statement': () => okAnswer([], { meta: { total: 0, pages: 1, page: 1, limit: 20 } }) });
    renderWithApp(<Statement />, { path: '/dashboard/statement' });
    expect(await screen.findByText('No movements yet. Add funds or buy a work and it shows here.')).toBeTruthy();
  });

  describe('in German (issue 31: by the description’s key, never its English)', () => {
    afterEach(() => i18n.changeLanguage('en'));

    it('shows a coded description in German, and one with an unknown key as the server wrote it', async () => {
      fakeApi({
        'GET /api/balance/statement': () =>
          okAnswer(
            [
              line(2, 'purchase', 'Purchase: Citrus Waves', -500, 1500, '/dashboard/orders', 'statement.purchase_of?title=Citrus+Waves&discount='),
              line(1, 'deposit', 'Funds added by a newer way', 2000, 2000, null, 'statement.newer_kind'),
            ],
            { meta: { total: 2, pages: 1, page: 1, limit: 20 } },
          ),
      });
      await loadServerWords('de');
      renderWithApp(<Statement />, { path: '/dashboard/statement' });
      const rows = await screen.findAllByTestId('statement-row');
      expect(within(rows[0]!).getByRole('link', { name: 'Kauf: Citrus Waves' })).toBeTruthy();
      expect(within(rows[1]!).getByText('Funds added by a newer way')).toBeTruthy();
    });
  });
});
