import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { aProfile } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { UsersAdmin } from './users-admin';

afterEach(() => vi.unstubAllGlobals());

const marta = {
  id: 7,
  email: 'marta@example.com',
  nickname: 'marta',
  name: 'Marta',
  surname: 'Reis',
  role: 'user',
  blocked: false,
  disputed: false,
  deleted: false,
  created_at: 1_790_000_000,
};

describe('Users', () => {
  it('issue 18 bug 3: searches, shows a user with balance and journal, and blocks them after a confirmation with a reason', async () => {
    const calls = fakeApi({
      'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
      'GET /api/user/profile': () => okAnswer(aProfile({ id: 1, role: 'admin', nickname: 'admin' })),
      'GET /api/admin/users': () => okAnswer([marta]),
      'GET /api/admin/users/7': () =>
        okAnswer({
          user: marta,
          balance_minor: 1250,
          orders: [],
          offers: [],
          journal: [{ transaction_id: 3, reason: 'deposit 4', amount_minor: 1250, created_at: 1_790_000_000 }],
        }),
      'POST /api/admin/users/7/block': () => okAnswer({ ...marta, blocked: true }),
    });
    renderWithApp(<UsersAdmin />);
    fireEvent.change(screen.getByLabelText('E-mail, nickname, name or id'), { target: { value: 'marta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.click(await screen.findByRole('button', { name: '#7 @marta · marta@example.com' }));
    expect(await screen.findByText('€12.50')).toBeTruthy();
    expect(screen.getByText(/deposit 4/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    // issue 18 bug 3: staff confirm the block in a dialog and must give a reason.
    const dialog = await screen.findByRole('dialog', { name: 'Block Marta Reis?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Block account' }));
    expect(await within(dialog).findByText('Please give a reason for the block.')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/admin/users/7/block')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Spam in chats.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Block account' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/admin/users/7/block')).toBe(true));
    expect(calls.find((c) => c.path === '/api/admin/users/7/block')?.body).toEqual({ reason: 'Spam in chats.' });
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('issue 19: a user with a disputed card payment is flagged in the list and in their view', async () => {
    const disputed = { ...marta, disputed: true };
    fakeApi({
      'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
      'GET /api/user/profile': () => okAnswer(aProfile({ id: 1, role: 'admin', nickname: 'admin' })),
      'GET /api/admin/users': () => okAnswer([disputed]),
      'GET /api/admin/users/7': () => okAnswer({ user: disputed, balance_minor: 0, orders: [], offers: [], journal: [] }),
    });
    renderWithApp(<UsersAdmin />);
    const entry = (await screen.findByRole('button', { name: '#7 @marta · marta@example.com' })).closest('li')!;
    expect(within(entry).getByText('Disputed')).toBeTruthy();
    fireEvent.click(within(entry).getByRole('button', { name: '#7 @marta · marta@example.com' }));
    expect(await screen.findByText('A card payment of this user was disputed (a chargeback). See the disputes on the Money screen.')).toBeTruthy();
  });
});
