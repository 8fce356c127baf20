import { liveEvent } from '@atelier/shared';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { parseLiveEvent, useLiveEvents } from './live-events';
import { useUnreadCounts } from './notifications';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A stand-in for the browser's EventSource that the test drives. */
class FakeEventSource {
  static last: FakeEventSource | null = null;
  listeners = new Map<string, (e: MessageEvent) => void>();
  closed = false;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(kind: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(kind, fn);
  }
  close() {
    this.closed = true;
  }
  emit(kind: string, data: object) {
    this.listeners.get(kind)?.(new MessageEvent(kind, { data: JSON.stringify(data) }));
  }
}

function Probe({ userId }: { userId: number | null }) {
  useLiveEvents(userId);
  const counts = useUnreadCounts(true);
  return <p>unread {counts.data?.notifications ?? '-'}</p>;
}

describe('live events', () => {
  it('refetches what an event names, stops the fallback polling while open, and closes on sign-out', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal('EventSource', FakeEventSource);
    let unread = 0;
    const calls = fakeApi({ 'GET /api/notifications/unread-count': () => okAnswer({ notifications: unread, chat_messages: 0 }) });
    const asked = () => calls.filter((c) => c.path === '/api/notifications/unread-count').length;
    const view = renderWithApp(<Probe userId={3} />);
    await screen.findByText('unread 0');
    const source = FakeEventSource.last!;
    expect(source.url).toBe('/api/events');
    act(() => source.emit('ready', { kind: 'ready', chatId: null, notificationId: null }));

    // Open: no polling, however long.
    const before = asked();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(asked()).toBe(before);

    // An event: the count is asked again at once.
    unread = 4;
    act(() => source.emit('new_message', { kind: 'new_message', chatId: 12, notificationId: 40 }));
    await screen.findByText('unread 4');

    // The stream drops: the fallback polling takes over.
    act(() => source.onerror?.());
    const dropped = asked();
    await act(() => vi.advanceTimersByTimeAsync(31_000));
    expect(asked()).toBeGreaterThan(dropped);

    view.rerender(<></>);
    view.unmount();
    expect(source.closed).toBe(true);
  });

  it('a signed-out visitor opens no stream', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    FakeEventSource.last = null;
    fakeApi({ 'GET /api/notifications/unread-count': () => jsonAnswer(401, {}) });
    renderWithApp(<Probe userId={null} />);
    expect(FakeEventSource.last).toBeNull();
  });

  it('the hand-written check of an event accepts and rejects what the shared schema does', () => {
    const samples: unknown[] = [
      { kind: 'new_message', chatId: 12, notificationId: 40 },
      { kind: 'ready', chatId: null, notificationId: null, extra: 'dropped' },
      { kind: 'x', chatId: 1.5, notificationId: null },
      { kind: 3, chatId: null, notificationId: null },
      { kind: 'x', chatId: '1', notificationId: null },
      { kind: 'x', chatId: null },
      null,
      'text',
    ];
    for (const sample of samples) {
      const expected = liveEvent.safeParse(sample);
      if (expected.success) expect(parseLiveEvent(sample)).toEqual(expected.data);
      else expect(() => parseLiveEvent(sample)).toThrow();
    }
  });
});
