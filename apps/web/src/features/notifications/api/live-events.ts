import type { LiveEvent } from '@atelier/shared';
import { LIVE_EVENT_KINDS } from '@atelier/shared/live-event-kinds';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { ACCOUNT_BLOCKED, reactToFailure } from '../../../lib/api-client';

/**
 * The live stream (GET /api/events, Server-Sent Events): one EventSource per signed-in tab. Each
 * event names what changed, and the matching cached answers are refetched. While the stream is not
 * open, screens fall back to the SPEC's 5-second polling (`useLiveConnected()` says which).
 */
let connected = false;
const listeners = new Set<() => void>();
function setConnected(next: boolean) {
  if (connected === next) return;
  connected = next;
  for (const l of listeners) l();
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Whether the live stream is open now (false on the server and before it opens). */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => connected,
    () => false,
  );
}

const intOrNull = (v: unknown): v is number | null => v === null || Number.isInteger(v);

/**
 * The `liveEvent` contract (packages/shared/src/notifications.ts) checked by hand: the stream runs in
 * every signed-in tab's layout, and the schema library would otherwise join every page's first load.
 * Throws on anything else; keeps only the three fields, as the schema does.
 */
export function parseLiveEvent(data: unknown): LiveEvent {
  const e = data as Record<string, unknown> | null;
  if (typeof e !== 'object' || e === null || typeof e.kind !== 'string' || !intOrNull(e.chatId) || !intOrNull(e.notificationId))
    throw new Error('Not a live event.');
  return { kind: e.kind, chatId: e.chatId, notificationId: e.notificationId };
}

/** The cached answers an event makes stale. */
export function applyLiveEvent(queryClient: QueryClient, event: LiveEvent) {
  if (event.chatId !== null) void queryClient.invalidateQueries({ queryKey: ['chat-messages', event.chatId] });
  void queryClient.invalidateQueries({ queryKey: ['chats'] });
  void queryClient.invalidateQueries({ queryKey: ['notifications'] });
  if (event.kind === 'image_unlocked' || event.kind === 'deposit_succeeded' || event.kind === 'sale_made' || event.kind === 'payout_paid')
    void queryClient.invalidateQueries({ queryKey: ['balance'] });
  // A generated image finished (or was refunded) after its request had ended (issue 29).
  if (event.kind === 'generation_finished') {
    void queryClient.invalidateQueries({ queryKey: ['generations'] });
    void queryClient.invalidateQueries({ queryKey: ['balance'] });
  }
}

/** Opens the stream for a signed-in user and closes it when they sign out (userId becomes null). */
export function useLiveEvents(userId: number | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events', { withCredentials: true });
    let wasOpen = false;
    const onEvent = (e: MessageEvent) => {
      let parsed: LiveEvent;
      try {
        parsed = parseLiveEvent(JSON.parse(e.data));
      } catch {
        return;
      }
      if (parsed.kind === 'account_blocked') {
        // Staff blocked the account: the server ends the stream; the app shows the blocked screen.
        source.close();
        setConnected(false);
        reactToFailure(403, ACCOUNT_BLOCKED);
        return;
      }
      if (parsed.kind === 'session_revoked') {
        // This browser was signed out from another one (issue 21): the stream ends; the app treats it as a 401.
        source.close();
        setConnected(false);
        reactToFailure(401, '');
        return;
      }
      if (parsed.kind === 'ready') {
        // Back after an outage: what happened meanwhile is fetched once.
        if (wasOpen) applyLiveEvent(queryClient, parsed);
        wasOpen = true;
        setConnected(true);
        return;
      }
      applyLiveEvent(queryClient, parsed);
    };
    for (const kind of LIVE_EVENT_KINDS) source.addEventListener(kind, onEvent as EventListener);
    source.onerror = () => {
      setConnected(false);
      // A closed stream (signed out, 401) is not retried by the browser; polling takes over.
    };
    return () => {
      source.close();
      setConnected(false);
    };
  }, [userId, queryClient]);
}
