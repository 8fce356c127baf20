import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authKey, LoginForm, RegisterForm } from '../features/auth';
import { siteKeys } from '../features/site';
import { createQueryClient } from '../lib/query-client';
import { contractChecked } from '../test/fake-api';
import { aProfile } from '../test/fixtures';
import { renderRouter } from '../test/render';
import { GuestOnly } from './guards';

const user = aProfile({ id: 1, name: 'Ana', surname: 'Silva', nickname: 'ana', email: 'ana@example.com' });

/** A fake API: the session is signed in once `signedIn` is true; every call is recorded. */
function fakeApi(state: { signedIn: boolean }) {
  const calls: { method: string; path: string }[] = [];
  const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = vi.fn(
    contractChecked(async (url: string, init: RequestInit = {}) => {
      const path = new URL(url, 'http://x').pathname;
      calls.push({ method: init.method ?? 'GET', path });
      if (path === '/sanctum/csrf-cookie') return new Response(null, { status: 204 });
      if (path === '/api/is-auth') return answer(200, { status: 'OK', payload: { authenticated: state.signedIn } });
      if (path === '/api/user/profile') return answer(200, { status: 'OK', payload: user });
      if (path === '/api/login' || path === '/api/register') {
        state.signedIn = true;
        return answer(200, { status: 'OK', message: 'Welcome.' });
      }
      return answer(404, { status: 'ERROR', message: 'Not here.' });
    }),
  );
  return { calls, fetch };
}

/** The app's guest-only guard around the sign-in pages; the next pages load lazily, as in the app. */
function renderPages(path: string, auth: { authenticated: boolean; user: unknown }) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(authKey, auth);
  queryClient.setQueryData(siteKeys.settings, { is_email_verification_enabled: false });
  queryClient.setQueryData(siteKeys.staticPages, []);
  const later = (text: string) => async () => {
    await new Promise((resolve) => setTimeout(resolve, 30));
    return { Component: () => <h1>{text}</h1> };
  };
  const router = createMemoryRouter(
    [
      {
        element: <GuestOnly />,
        children: [
          { path: '/login', element: <LoginForm /> },
          { path: '/register', element: <RegisterForm /> },
        ],
      },
      { path: '/products', lazy: later('Products page') },
      { path: '/dashboard', lazy: later('Dashboard page') },
    ],
    { initialEntries: [path] },
  );
  renderRouter(router, queryClient);
  return router;
}

function signIn() {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ana@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-pass' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie.
  document.cookie = 'XSRF-TOKEN=t; path=/';
});
afterEach(() => vi.unstubAllGlobals());

describe('signing in from a page', () => {
  it('goes back to the ?redirect= page, not the dashboard', async () => {
    const api = fakeApi({ signedIn: false });
    vi.stubGlobal('fetch', api.fetch);
    const router = renderPages('/login?redirect=%2Fproducts%3Fsearch%3Dboat', { authenticated: false, user: null });
    signIn();
    expect(await screen.findByText('Products page')).toBeTruthy();
    expect(router.state.location.pathname + router.state.location.search).toBe('/products?search=boat');
    // The guard did not cut the navigation short on its way.
    expect(screen.queryByText('Dashboard page')).toBeNull();
  });

  it('goes to the dashboard when the redirect names another site', async () => {
    const api = fakeApi({ signedIn: false });
    vi.stubGlobal('fetch', api.fetch);
    const router = renderPages(`/login?redirect=${encodeURIComponent('/\t/evil.example')}`, { authenticated: false, user: null });
    signIn();
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('sends a visitor who is signed in already on to the redirect page', async () => {
    vi.stubGlobal('fetch', fakeApi({ signedIn: true }).fetch);
    const router = renderPages('/register?redirect=%2Fproducts', { authenticated: true, user });
    expect(await screen.findByText('Products page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/products');
  });
});

describe('sign-in forms while signed in', () => {
  it('does not send the login when the session turns out to be signed in (another tab)', async () => {
    // The page still shows a guest, but the server's session is signed in.
    const api = fakeApi({ signedIn: true });
    vi.stubGlobal('fetch', api.fetch);
    renderPages('/login', { authenticated: false, user: null });
    signIn();
    expect(await screen.findByText('You are already signed in. Log out first to use another account.')).toBeTruthy();
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('keeps the submit buttons disabled while the page knows the user is signed in', async () => {
    vi.stubGlobal('fetch', fakeApi({ signedIn: true }).fetch);
    const queryClient = createQueryClient();
    queryClient.setQueryData(authKey, { authenticated: true, user });
    queryClient.setQueryData(siteKeys.staticPages, []);
    const router = createMemoryRouter(
      [
        { path: '/login', element: <LoginForm /> },
        { path: '/register', element: <RegisterForm /> },
      ],
      { initialEntries: ['/login'] },
    );
    renderRouter(router, queryClient);
    expect((screen.getByRole('button', { name: 'Sign In' }) as HTMLButtonElement).disabled).toBe(true);
    await router.navigate('/register');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Register' }) as HTMLButtonElement).disabled).toBe(true), { timeout: 8000 });
  });
});
