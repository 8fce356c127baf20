import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { MyStatements } from './my-statements';

afterEach(() => vi.unstubAllGlobals());

const statement = {
  report_id: 12,
  subject: { type: 'product', id: 7, title: 'Harbour at dawn', link: '/products/harbour-at-dawn' },
  reason: 'copyright',
  decision: 'remove',
  ground: 'law',
  explanation: 'The work copies a protected artwork.',
  automated: false,
  decided_at: 1_790_000_000,
  appeal: { open_until: 1_805_000_000, message: null, appealed_at: null, outcome: null, explanation: null },
};

describe('Reports about my content', () => {
  it('shows the statement of reasons (what, about what, which ground, no automated means) and sends an appeal', async () => {
    const calls = fakeApi({
      'GET /api/user/reports/statements': () => okAnswer([statement]),
      'POST /api/reports/12/appeal': () =>
        okAnswer({ ...statement, appeal: { ...statement.appeal, open_until: null, message: 'It is my own.', appealed_at: 1_790_100_000 } }),
    });
    renderWithApp(<MyStatements />);
    const card = await screen.findByTestId('statement');
    expect(within(card).getByRole('link', { name: 'Harbour at dawn' }).getAttribute('href')).toBe('/products/harbour-at-dawn');
    expect(within(card).getByText('Removed', { exact: false })).toBeTruthy();
    expect(within(card).getByText('The law', { exact: false })).toBeTruthy();
    expect(within(card).getByText('The work copies a protected artwork.', { exact: false })).toBeTruthy();
    expect(within(card).getByText('A person decided; no automated means were used.', { exact: false })).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Appeal' }));
    fireEvent.change(within(card).getByLabelText('Why the decision is wrong'), { target: { value: 'It is my own.' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Send appeal' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/reports/12/appeal')).toBe(true));
    expect(calls.find((c) => c.path === '/api/reports/12/appeal')!.body).toEqual({ message: 'It is my own.' });
  });
});
