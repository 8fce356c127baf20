import { CHAT_SCROLL_FLAG_MS } from '@atelier/shared';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { aProfile } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { chatOf, messageOf, party } from './chat-test-data';
import { ChatView } from './chat-view';
import { Conversation } from './conversation';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const signedIn = {
  'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
  'GET /api/user/profile': () => okAnswer(aProfile()),
};
const page = (payload: unknown[]) => jsonAnswer(200, { status: 'OK', payload, meta: { next: null } });

describe('chat without the live stream', () => {
  it('polls the open chat every 5 s, and stops polling a chat once another is chosen', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = fakeApi({
      ...signedIn,
      'GET /api/chat': () => okAnswer([chatOf({ id: 12 }), chatOf({ id: 13, recipient: party(9, { first_name: 'Max' }) })]),
      'GET /api/chat/12/messages': () => page([messageOf({ id: 1, message: 'in twelve' })]),
      'GET /api/chat/13/messages': () => page([messageOf({ id: 2, message: 'in thirteen' })]),
    });
    const count = (path: string) => calls.filter((c) => c.path === path).length;
    renderWithApp(<ChatView />, { path: '/dashboard/chat?chat=12' });
    await screen.findByText('in twelve');
    const first = count('/api/chat/12/messages');
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(count('/api/chat/12/messages')).toBe(first + 1);
    expect(count('/api/chat')).toBeGreaterThanOrEqual(2);

    fireEvent.click(screen.getByText('Max'));
    await screen.findByText('in thirteen');
    const twelveAfterSwitch = count('/api/chat/12/messages');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(count('/api/chat/12/messages')).toBe(twelveAfterSwitch);
    expect(count('/api/chat/13/messages')).toBeGreaterThanOrEqual(3);
  });

  it('pages through older messages until there is no next page, oldest first', async () => {
    fakeApi({
      ...signedIn,
      'GET /api/chat/12/messages': ({ url }) =>
        url.searchParams.get('page') === '2'
          ? page([messageOf({ id: 1, message: 'older' })])
          : jsonAnswer(200, { status: 'OK', payload: [messageOf({ id: 2, message: 'newer' })], meta: { next: '/api/chat/12/messages?page=2' } }),
    });
    renderWithApp(<Conversation chat={chatOf()} meId={3} />);
    await screen.findByText('newer');
    const texts = screen.getAllByTestId('chat-message').map((li) => li.querySelector('.bubble-text')?.textContent);
    expect(texts).toEqual(['older', 'newer']);
  });

  it('away from the bottom (over 100 px), new messages are counted on the scroll-to-bottom button', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let messages = [messageOf({ id: 1, message: 'first', user: { id: 7 } })];
    fakeApi({ ...signedIn, 'GET /api/chat/12/messages': () => page(messages) });
    const { queryClient } = renderWithApp(<Conversation chat={chatOf()} meId={3} />);
    await screen.findByText('first');
    const scroller = screen.getByTestId('conversation-scroll');
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 400 });
    await act(() => vi.advanceTimersByTimeAsync(CHAT_SCROLL_FLAG_MS)); // the app's own scroll flag clears
    scroller.scrollTop = 499; // 101 px from the end
    fireEvent.scroll(scroller);
    const button = await screen.findByTestId('scroll-to-bottom');
    expect(button.textContent).toBe('↓');
    messages = [...messages, messageOf({ id: 2, message: 'second', user: { id: 7 } }), messageOf({ id: 3, message: 'third', user: { id: 7 } })];
    await act(() => queryClient.invalidateQueries({ queryKey: ['chat-messages', 12] }));
    await screen.findByText('third');
    expect(screen.getByTestId('scroll-to-bottom').textContent).toBe('↓2');
    fireEvent.click(screen.getByTestId('scroll-to-bottom'));
    expect(scroller.scrollTop).toBe(1000);
    expect(screen.queryByTestId('scroll-to-bottom')).toBeNull();

    // Within 100 px of the end counts as the bottom: no button.
    await act(() => vi.advanceTimersByTimeAsync(CHAT_SCROLL_FLAG_MS));
    scroller.scrollTop = 500;
    fireEvent.scroll(scroller);
    expect(screen.queryByTestId('scroll-to-bottom')).toBeNull();
  });
});
