import { fireEvent, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, setGlobalApiHandlers } from '../../../lib/api-client';
import { createQueryClient } from '../../../lib/query-client';
import { jsonAnswer, renderRouter } from '../../../test/render';
import { siteKeys } from '../../site';
import { authKey } from '../api/auth-state';
import { LoginForm } from './login-form';

const user = { id: 1, name: 'Ana', surname: 'Silva', nickname: 'ana', email: 'ana@example.com', is_email_verified: true };

/**
 * The server after the browser's session ended elsewhere: the XSRF cookie in the browser ('stale') no
 * longer matches, and GET /sanctum/csrf-cookie hands out a fresh one. Every call is recorded.
 */
function serverAfterSessionEnded() {
  const calls: { method: string; path: string; token?: string }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const path = new URL(url, 'http://x').pathname;
    const method = init.method ?? 'GET';
    const token = (init.headers as Record<string, string> | undefined)?.['X-XSRF-TOKEN'];
    calls.push({ method, path, token });
    if (path === '/sanctum/csrf-cookie') {
      // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie.
      document.cookie = 'XSRF-TOKEN=fresh; path=/';
      return new Response(null, { status: 204 });
    }
    if (method !== 'GET' && token !== 'fresh') return jsonAnswer(419, { status: 'ERROR', message: 'CSRF token mismatch. Reload the page and try again.' });
    if (path === '/api/is-auth') return jsonAnswer(200, { status: 'OK', payload: { authenticated: false } });
    if (path === '/api/user/profile') return jsonAnswer(200, { status: 'OK', payload: user });
    if (path === '/api/login' || path === '/api/cart/add') return jsonAnswer(200, { status: 'OK', message: 'Done.', payload: { done: true } });
    return jsonAnswer(404, { status: 'ERROR', message: 'Not here.' });
  });
  return { calls, fetch };
}

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the browser still holds the cookie of the ended session.
  document.cookie = 'XSRF-TOKEN=stale; path=/';
});
afterEach(() => {
  vi.unstubAllGlobals();
  setGlobalApiHandlers({ onCsrfExpired: undefined });
});

describe('a stale XSRF cookie (issue 18 bug 1)', () => {
  it('issue 18 bug 1: a call that gets 419 renews the XSRF cookie and is sent once more', async () => {
    const server = serverAfterSessionEnded();
    vi.stubGlobal('fetch', server.fetch);
    const expired = vi.fn();
    setGlobalApiHandlers({ onCsrfExpired: expired });
    await expect(api('/api/cart/add', { method: 'POST', body: { product_id: 1 } })).resolves.toEqual({ done: true });
    expect(server.calls).toEqual([
      { method: 'POST', path: '/api/cart/add', token: 'stale' },
      { method: 'GET', path: '/sanctum/csrf-cookie', token: undefined },
      { method: 'POST', path: '/api/cart/add', token: 'fresh' },
    ]);
    // Nothing reloads the page: the retry was enough.
    expect(expired).not.toHaveBeenCalled();
  });

  it('issue 18 bug 1: a second 419 is not retried again; the global reaction runs once', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      calls.push(new URL(url, 'http://x').pathname);
      if (url.includes('csrf-cookie')) return new Response(null, { status: 204 });
      return jsonAnswer(419, { status: 'ERROR', message: 'CSRF token mismatch. Reload the page and try again.' });
    });
    const expired = vi.fn();
    setGlobalApiHandlers({ onCsrfExpired: expired });
    await expect(api('/api/cart/add', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 419 });
    expect(calls).toEqual(['/api/cart/add', '/sanctum/csrf-cookie', '/api/cart/add']);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('issue 18 bug 1: signing in renews the XSRF cookie first, so the login is sent once and goes through', async () => {
    const server = serverAfterSessionEnded();
    vi.stubGlobal('fetch', server.fetch);
    const queryClient = createQueryClient();
    queryClient.setQueryData(authKey, { authenticated: false, user: null });
    queryClient.setQueryData(siteKeys.settings, { is_email_verification_enabled: false });
    queryClient.setQueryData(siteKeys.staticPages, []);
    const router = createMemoryRouter(
      [
        { path: '/login', element: <LoginForm /> },
        { path: '/dashboard', element: <h1>Dashboard page</h1> },
      ],
      { initialEntries: ['/login'] },
    );
    renderRouter(router, queryClient);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ana@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-pass' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    const logins = server.calls.filter((c) => c.path === '/api/login');
    expect(logins).toEqual([{ method: 'POST', path: '/api/login', token: 'fresh' }]);
    const renewal = server.calls.findIndex((c) => c.path === '/sanctum/csrf-cookie');
    expect(renewal).toBeGreaterThanOrEqual(0);
    expect(renewal).toBeLessThan(server.calls.findIndex((c) => c.path === '/api/login'));
  });
});
