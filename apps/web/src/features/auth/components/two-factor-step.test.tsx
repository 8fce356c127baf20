import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { contractChecked } from '../../../test/fake-api';
import { aProfile } from '../../../test/fixtures';
import { jsonAnswer, renderRouter } from '../../../test/render';
import { siteKeys } from '../../site';
import { authKey } from '../api/auth-state';
import { LoginForm } from './login-form';

type Sent = { path: string; body: unknown };

/** A server with two-factor sign-in on for the account: the password step, then the code step. */
function server(second: (body: Record<string, string>) => Response) {
  const sent: Sent[] = [];
  let signedIn = false;
  vi.stubGlobal(
    'fetch',
    contractChecked(async (url: string, init: RequestInit = {}) => {
      const path = new URL(url, 'http://x').pathname;
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      sent.push({ path, body });
      if (path === '/sanctum/csrf-cookie') return new Response(null, { status: 204 });
      if (path === '/api/is-auth') return jsonAnswer(200, { status: 'OK', payload: { authenticated: signedIn } });
      if (path === '/api/user/profile') return jsonAnswer(200, { status: 'OK', payload: aProfile({ id: 1, name: 'Ana', email: 'ana@example.com' }) });
      if (path === '/api/login')
        return jsonAnswer(200, {
          status: 'OK',
          message: 'Enter the code from your authenticator app.',
          payload: { two_factor_required: true, methods: ['totp', 'recovery_code'] },
        });
      if (path === '/api/login/2fa') {
        const answer = second(body);
        if (answer.status === 200) signedIn = true;
        return answer;
      }
      return jsonAnswer(404, { status: 'ERROR', message: 'Not here.' });
    }),
  );
  return sent;
}

function renderLogin() {
  const queryClient = createQueryClient();
  queryClient.setQueryData(authKey, { authenticated: false, user: null });
  queryClient.setQueryData(siteKeys.settings, { is_email_verification_enabled: false });
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginForm /> },
      { path: '/dashboard', element: <p>Dashboard page</p> },
    ],
    { initialEntries: ['/login'] },
  );
  renderRouter(router, queryClient);
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ana@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'violet-harbour-42' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
  return router;
}

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie.
  document.cookie = 'XSRF-TOKEN=t; path=/';
});
afterEach(() => vi.unstubAllGlobals());

describe('the 2FA step of the login page (issue 21)', () => {
  it('issue 21: after the password it asks for the app code, shows a wrong code under the field, and signs in with the right one', async () => {
    const sent = server((body) =>
      body.code === '123456'
        ? jsonAnswer(200, { status: 'OK', message: 'Welcome back, Ana!' })
        : jsonAnswer(422, { status: 'ERROR', message: 'This code is not correct.', errors: { code: ['This code is not correct.'] } }),
    );
    const router = renderLogin();
    const code = await screen.findByLabelText('Code from the app');
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('This code is not correct.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(sent.filter((s) => s.path === '/api/login/2fa').map((s) => s.body)).toEqual([{ code: '000000' }, { code: '123456' }]);
  });

  it('issue 21: a recovery code can be used instead', async () => {
    const sent = server(() => jsonAnswer(200, { status: 'OK', message: 'Welcome back, Ana!' }));
    const router = renderLogin();
    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    expect(screen.getByText('Enter one of your recovery codes. Each works once.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'abcde-12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(sent.find((s) => s.path === '/api/login/2fa')?.body).toEqual({ recovery_code: 'abcde-12345' });
  });

  it('issue 21: an expired first step goes back to the password with the reason', async () => {
    server(() => jsonAnswer(401, { status: 'ERROR', message: 'Your sign-in has expired. Please enter your e-mail and password again.' }));
    renderLogin();
    fireEvent.change(await screen.findByLabelText('Code from the app'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Your sign-in has expired. Please enter your e-mail and password again.')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
  });
});
