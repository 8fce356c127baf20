import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../test/fake-api';
import { aProfile } from '../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../test/render';
import { NotificationsButton, SidebarNotifications } from './notifications';

afterEach(() => vi.unstubAllGlobals());

const signedIn = {
  'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
  'GET /api/user/profile': () => okAnswer(aProfile()),
};
const note = (id: number, read: boolean, text: string, link: string | null) => ({
  id,
  kind: 'new_message',
  text,
  params: null,
  link,
  chat_id: 12,
  read,
  created_at: new Date().toISOString(),
});

describe('header notifications', () => {
  it('shows the unread count capped at 9+, lists notifications linking to their subject, and marks one read when opened', async () => {
    let unread = 12;
    const calls = fakeApi({
      ...signedIn,
      'GET /api/notifications/unread-count': () => okAnswer({ notifications: unread, chat_messages: 3 }),
      'GET /api/notifications': () =>
        jsonAnswer(200, {
          status: 'OK',
          payload: [
            note(41, false, 'New message from Sofia Marin', '/dashboard/chat?chat=12'),
            note(40, true, 'Your deposit of 25.00 EUR is credited.', '/dashboard/deposits'),
          ],
          meta: { unread_count: unread, next: null },
        }),
      'POST /api/notifications/read': () => {
        unread = 11;
        return okAnswer({ marked: 1, unread_count: 11 });
      },
    });
    renderWithApp(<NotificationsButton />);
    expect((await screen.findByTestId('notifications-badge')).textContent).toBe('9+');
    // Issue 31: the button's name holds what it shows ("9+"), as a word of its own.
    expect(screen.getByRole('button', { name: 'Notifications, 9+ unread notifications' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Notifications/ }));
    const link = await screen.findByRole('link', { name: /New message from Sofia Marin/ });
    expect(link.getAttribute('href')).toBe('/dashboard/chat?chat=12');
    expect(link.closest('li')?.getAttribute('data-unread')).toBe('true');
    expect(
      screen
        .getByRole('link', { name: /deposit/ })
        .closest('li')
        ?.getAttribute('data-unread'),
    ).toBeNull();
    fireEvent.click(link);
    await vi.waitFor(() => expect(calls.find((c) => c.path === '/api/notifications/read')?.body).toEqual({ ids: [41] }));
  });

  it('a guest sees no badge and the SPEC words', async () => {
    fakeApi({ 'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: false } }) });
    renderWithApp(<NotificationsButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('no notifications yet')).toBeTruthy();
    expect(screen.queryByTestId('notifications-badge')).toBeNull();
  });
});

describe('notices worded in the page language (issue 31)', () => {
  it('a sale and a refund read with the amount and date as every page shows them; other kinds keep their text', async () => {
    const at = new Date(2026, 11, 1, 22, 10).toISOString();
    fakeApi({
      ...signedIn,
      'GET /api/notifications': () =>
        jsonAnswer(200, {
          status: 'OK',
          payload: [
            {
              ...note(3, false, 'You sold "Fox" (25.00 €).', '/dashboard/sales'),
              kind: 'sale_made',
              chat_id: null,
              created_at: at,
              params: { title: 'Fox', count: 1, amount_minor: 2500 },
            },
            {
              ...note(2, false, 'A buyer asked for a refund of "Fox" (25.00 €).', '/dashboard/refunds'),
              kind: 'refund_requested',
              chat_id: null,
              params: { title: 'Fox', amount_minor: 2500, status: 'open' },
            },
            {
              ...note(1, true, 'The refund request for "Fox" was refunded.', '/dashboard/orders'),
              kind: 'refund_status',
              chat_id: null,
              params: { title: 'Fox', amount_minor: 2500, status: 'refunded' },
            },
          ],
          meta: { unread_count: 2, next: null },
        }),
    });
    renderWithApp(<SidebarNotifications open />);
    const sale = await screen.findByRole('link', { name: /You sold “Fox” \(€25\.00\)\./ });
    expect(sale.querySelector('time')?.textContent).toBe('01.12.2026 22:10');
    expect(screen.getByRole('link', { name: /A buyer asked for a refund of “Fox” \(€25\.00\)\./ })).toBeTruthy();
    expect(screen.getByRole('link', { name: /The refund request for “Fox” was granted: €25\.00 refunded\./ })).toBeTruthy();
  });
});

describe('sidebar notifications (issue 18)', () => {
  it('lists the real notifications, as the header bell does', async () => {
    fakeApi({
      ...signedIn,
      'GET /api/notifications': () =>
        jsonAnswer(200, {
          status: 'OK',
          payload: [note(41, false, 'New message from Sofia Marin', '/dashboard/chat?chat=12')],
          meta: { unread_count: 1, next: null },
        }),
    });
    renderWithApp(<SidebarNotifications open />);
    const link = await screen.findByRole('link', { name: /New message from Sofia Marin/ });
    expect(link.getAttribute('href')).toBe('/dashboard/chat?chat=12');
    expect(screen.queryByText('no notifications yet')).toBeNull();
  });
});
