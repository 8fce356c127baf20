import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { aProfile } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { ChatList } from './chat-list';
import { buyer, chatOf, creator, messageOf, party } from './chat-test-data';
import { ChatView } from './chat-view';

afterEach(() => vi.unstubAllGlobals());

const signedInAs = (id: number) => ({
  'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
  'GET /api/user/profile': () => okAnswer(aProfile({ id })),
});

describe('chat list', () => {
  it('shows the other party: full name, rate as X €/h, online dot, unread badge capped at 9+, envelope', () => {
    const chats = [
      chatOf({ id: 12, unreadCount: 12, last_message: 'Price offered' }),
      chatOf({ id: 13, sender: buyer, recipient: party(9, { nickname: 'anon' }), unreadCount: 3, isOnline: false }),
    ];
    renderWithApp(<ChatList chats={chats} selectedId={12} meId={3} currency="EUR" />);
    const [first, second] = screen.getAllByTestId('chat-list-item');
    expect(within(first!).getByText('Sofia Reis')).toBeTruthy();
    expect(within(first!).getByText('€45.00/h')).toBeTruthy();
    expect(within(first!).getByRole('img', { name: 'Online' })).toBeTruthy();
    expect(within(first!).getByTestId('chat-unread').textContent).toBe('9+');
    expect(first!.querySelector('.chat-envelope')).toBeTruthy();
    expect(first!.getAttribute('aria-current')).toBe('true');
    expect(first!.getAttribute('href')).toBe('/dashboard/chat?chat=12');
    // No name: 'User'; offline: no dot; a count up to 9 as it is.
    expect(within(second!).getByText('User')).toBeTruthy();
    expect(within(second!).queryByRole('img', { name: 'Online' })).toBeNull();
    expect(within(second!).getByTestId('chat-unread').textContent).toBe('3');
  });

  it('the creator sees the buyer as the other party', () => {
    renderWithApp(<ChatList chats={[chatOf({ sender: { ...buyer, hourly_rate: 0 } })]} selectedId={null} meId={creator.id} currency="EUR" />);
    expect(screen.getByText('Ines Costa')).toBeTruthy();
    // Issue 31: a buyer without a rate is shown without "€0.00/h".
    expect(screen.getByTestId('chat-list-item').textContent).not.toMatch(/\/h/);
  });

  it('says how to reach a creator when there is no chat', async () => {
    fakeApi({ ...signedInAs(3), 'GET /api/chat': () => okAnswer([]) });
    renderWithApp(<ChatView />, { path: '/dashboard/chat' });
    expect(await screen.findByText('To reach out to a creator, open a product you like')).toBeTruthy();
  });

  it('selects the first chat on opening and shows its messages with times, the Today separator and own/other bubbles', async () => {
    const at = new Date();
    at.setHours(9, 5, 0, 0);
    fakeApi({
      ...signedInAs(3),
      'GET /api/chat': () => okAnswer([chatOf({ id: 12 }), chatOf({ id: 13, recipient: party(9, { first_name: 'Max' }) })]),
      'GET /api/chat/12/messages': () =>
        jsonAnswer(200, {
          status: 'OK',
          payload: [
            messageOf({ id: 1, message: 'Hi Sofia', user: { id: 3 }, created_at: at.toISOString() }),
            messageOf({ id: 2, message: 'Hello Ines', user: { id: 7 }, created_at: at.toISOString() }),
          ],
          meta: { next: null },
        }),
    });
    renderWithApp(<ChatView />, { path: '/dashboard/chat' });
    const mine = await screen.findByText('Hi Sofia');
    expect(mine.closest('li')?.className).toContain('own');
    expect(screen.getByText('Hello Ines').closest('li')?.className).toContain('other');
    expect(screen.getAllByText('09:05')).toHaveLength(2);
    expect(screen.getByTestId('day-separator').textContent).toBe('Today');
    expect(
      within(screen.getByTestId('conversation'))
        .getByRole('link', { name: /Sofia Reis/ })
        .getAttribute('href'),
    ).toBe('/profile/sofia');
    // Auto-selected, not asked for: the list stays the first screen on a phone.
    expect(screen.getByTestId('chat-tab').getAttribute('data-screen')).toBe('list');
  });

  it('Enter sends the trimmed text; an empty one is not sent', async () => {
    const calls = fakeApi({
      ...signedInAs(3),
      'GET /api/chat': () => okAnswer([chatOf()]),
      'GET /api/chat/12/messages': () => jsonAnswer(200, { status: 'OK', payload: [], meta: { next: null } }),
      'POST /api/chat/12/messages': ({ body }) => okAnswer(messageOf({ id: 5, message: (body as { message: string }).message })),
    });
    renderWithApp(<ChatView />, { path: '/dashboard/chat?chat=12' });
    const input = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
    const { fireEvent } = await import('@testing-library/react');
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.change(input, { target: { value: '  Can you paint my cat?  ' } });
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.keyDown(input, { key: 'Enter' });
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ message: 'Can you paint my cat?' });
    expect(screen.getByTestId('chat-tab').getAttribute('data-screen')).toBe('conversation');
  });
});
