import { act, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { siteKeys } from '../features/site';
import { createQueryClient } from '../lib/query-client';
import { contractChecked, fakeApi, okAnswer } from '../test/fake-api';
import { aProfile, siteSettings } from '../test/fixtures';
import { jsonAnswer, renderRouter } from '../test/render';
import { loadPages, routes } from './router';

afterEach(() => vi.unstubAllGlobals());

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

const ana = aProfile({ name: 'Ana', surname: 'Silva', nickname: 'ana', email: 'ana@example.com' });

/** The whole app on a signed-in page; `blocked` turns every guarded call into the server's blocked answer. */
async function renderSignedIn(state: { blocked: boolean }, path = '/contact') {
  // The page modules load on demand; the app loads the first page's before rendering it.
  await loadPages(path);
  await loadPages('/account-blocked');
  const settings = () => okAnswer(siteSettings({ support_email: 'help@atelier.test' }));
  const blocked = () =>
    jsonAnswer(403, { status: 'ERROR', message: 'Your account is blocked. Please contact support if you think this is a mistake.', code: 'account.blocked' });
  fakeApi({ 'GET /api/settings': settings, 'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: !state.blocked } }) });
  // Every other call: the signed-in answers, or once blocked the server's blocked answer.
  const site = globalThis.fetch;
  vi.stubGlobal(
    'fetch',
    contractChecked(async (input: string, init: RequestInit = {}) => {
      const path = new URL(input, 'http://localhost').pathname;
      if (path === '/api/settings' || path === '/api/currencies' || path === '/api/is-auth' || path === '/sanctum/csrf-cookie') return site(input, init);
      if (state.blocked) return blocked();
      if (path === '/api/user/profile') return okAnswer(ana);
      if (path === '/api/notifications/unread-count') return okAnswer({ notifications: 0, chat_messages: 0 });
      // The dashboard asks whether Ana has works (issue 31: the creator tabs).
      if (path.startsWith('/api/user/public-profile/'))
        return okAnswer({
          id: ana.id,
          name: ana.name,
          surname: ana.surname,
          nickname: ana.nickname,
          about_me: '',
          hourly_rate: 0,
          avatar_path: null,
          avatar_url_large: null,
          created_at: ana.created_at,
          products_count: 0,
          rating_average: 0,
          rating_count: 0,
          followers_count: 0,
          following: false,
        });
      return okAnswer([]);
    }),
  );
  const queryClient = createQueryClient();
  queryClient.setQueryData(['auth'], { authenticated: true, user: ana });
  queryClient.setQueryData(siteKeys.staticPages, []);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  return renderRouter(router, queryClient);
}

describe('a blocked user is told (issue 18 bug 3)', () => {
  it('issue 18 bug 3: the live stream’s block event signs the user out and shows the blocked screen with the support address', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    FakeEventSource.last = null;
    const state = { blocked: false };
    // On a protected page: its guard must not send the user to sign in instead.
    const { router } = await renderSignedIn(state, '/dashboard');
    await vi.waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    const source = FakeEventSource.last!;
    state.blocked = true;
    act(() => source.emit('account_blocked', { kind: 'account_blocked', chatId: null, notificationId: null }));
    expect(await screen.findByRole('heading', { name: 'Your account is blocked' }, { timeout: 5000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account-blocked');
    expect(source.closed).toBe(true);
    expect(await screen.findByText('If you think this is a mistake, write to help@atelier.test or use the contact page.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe('/contact');
  });

  it('issue 18 bug 3: without the stream, the next call’s blocked answer shows the blocked screen', async () => {
    vi.stubGlobal('EventSource', undefined);
    const state = { blocked: true };
    // The dashboard asks for the user's orders at once: the answer is the blocked 403.
    const { router } = await renderSignedIn(state, '/dashboard/orders');
    expect(await screen.findByRole('heading', { name: 'Your account is blocked' }, { timeout: 5000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account-blocked');
  });
});
