import { fireEvent, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, loadServerWords } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { contractChecked } from '../../../test/fake-api';
import { jsonAnswer, renderRouter } from '../../../test/render';
import { siteKeys } from '../../site';
import { authKey } from '../api/auth-state';
import { LoginForm } from './login-form';

const incorrect = 'The e-mail or password is incorrect.';

/** The server's answer to a wrong password (see auth.routes.ts): one sentence, also under `username`. */
function serverRefusing(answer: () => Response) {
  return vi.fn(
    contractChecked(async (url: string) => {
      const path = new URL(url, 'http://x').pathname;
      if (path === '/sanctum/csrf-cookie') return new Response(null, { status: 204 });
      if (path === '/api/is-auth') return jsonAnswer(200, { status: 'OK', payload: { authenticated: false } });
      if (path === '/api/login') return answer();
      return jsonAnswer(404, { status: 'ERROR', message: 'Not here.' });
    }),
  );
}

function renderLogin() {
  const queryClient = createQueryClient();
  queryClient.setQueryData(authKey, { authenticated: false, user: null });
  queryClient.setQueryData(siteKeys.settings, { is_email_verification_enabled: false });
  const router = createMemoryRouter([{ path: '/login', element: <LoginForm /> }], { initialEntries: ['/login'] });
  renderRouter(router, queryClient);
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ana@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'not-my-password' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie.
  document.cookie = 'XSRF-TOKEN=t; path=/';
});
afterEach(() => vi.unstubAllGlobals());

describe('the login form (issue 18 conformance)', () => {
  it('issue 18 conformance: a wrong password shows one sentence, once', async () => {
    vi.stubGlobal(
      'fetch',
      serverRefusing(() => jsonAnswer(422, { status: 'ERROR', message: incorrect, errors: { username: [incorrect] } })),
    );
    renderLogin();
    expect(await screen.findByText(incorrect)).toBeTruthy();
    // Give a toast every chance to appear: the button is back once the request settled.
    await screen.findByRole('button', { name: 'Sign In' });
    expect(screen.getAllByText(incorrect)).toHaveLength(1);
    expect(screen.queryByText(/do not match our records/)).toBeNull();
    expect(screen.queryByText('Login failed. Please try again.')).toBeNull();
  });

  it('issue 18 conformance: a failure without field messages is told once, in a toast', async () => {
    vi.stubGlobal(
      'fetch',
      serverRefusing(() => jsonAnswer(429, { status: 'ERROR', message: 'Too many failed sign-in attempts.' })),
    );
    renderLogin();
    expect(await screen.findByText('Too many failed sign-in attempts.')).toBeTruthy();
    await screen.findByRole('button', { name: 'Sign In' });
    expect(screen.getAllByText('Too many failed sign-in attempts.')).toHaveLength(1);
  });
});

describe('the login form in German (issue 18: German is complete)', () => {
  afterEach(() => i18n.changeLanguage('en'));

  /** The login page in German, as a /de page loads its words (the server's words do not come here). */
  async function renderGermanLogin() {
    await loadServerWords('de');
    const queryClient = createQueryClient();
    queryClient.setQueryData(authKey, { authenticated: false, user: null });
    queryClient.setQueryData(siteKeys.settings, { is_email_verification_enabled: false });
    renderRouter(createMemoryRouter([{ path: '/login', element: <LoginForm /> }], { initialEntries: ['/login'] }), queryClient);
  }

  it("issue 18: the form's own messages and the server's answer are German", async () => {
    vi.stubGlobal(
      'fetch',
      serverRefusing(() =>
        jsonAnswer(422, {
          status: 'ERROR',
          message: incorrect,
          code: 'auth.invalid_credentials',
          errors: { username: [incorrect] },
          codes: { username: ['auth.invalid_credentials'] },
        }),
      ),
    );
    await renderGermanLogin();

    fireEvent.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText('Bitte fülle „E-Mail“ aus.')).toBeTruthy();
    expect(screen.getByText('Bitte fülle „Passwort“ aus.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('E-Mail'), { target: { value: 'ana@example.com' } });
    fireEvent.change(screen.getByLabelText('Passwort'), { target: { value: 'not-my-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText('E-Mail-Adresse oder Passwort ist falsch.')).toBeTruthy();
    expect(screen.queryByText(incorrect)).toBeNull();
  });

  it('issue 31: a coded answer without field messages is German, by its key and values', async () => {
    const english = 'Too many failed sign-in attempts. Please try again in 30 seconds.';
    vi.stubGlobal(
      'fetch',
      serverRefusing(() => jsonAnswer(429, { status: 'ERROR', message: english, code: 'rate.retry_seconds?what=rate.sign_in&n=30' })),
    );
    await renderGermanLogin();
    fireEvent.change(screen.getByLabelText('E-Mail'), { target: { value: 'ana@example.com' } });
    fireEvent.change(screen.getByLabelText('Passwort'), { target: { value: 'not-my-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText('Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuche es in 30 Sekunden erneut.')).toBeTruthy();
    expect(screen.queryByText(english)).toBeNull();
  });

  it('issue 31: a key this app does not know shows the English the server sent', async () => {
    const english = 'A message from a newer server.';
    vi.stubGlobal(
      'fetch',
      serverRefusing(() =>
        jsonAnswer(422, {
          status: 'ERROR',
          message: english,
          code: 'auth.newer_key',
          errors: { username: [english] },
          codes: { username: ['auth.newer_key'] },
        }),
      ),
    );
    await renderGermanLogin();
    fireEvent.change(screen.getByLabelText('E-Mail'), { target: { value: 'ana@example.com' } });
    fireEvent.change(screen.getByLabelText('Passwort'), { target: { value: 'not-my-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText(english)).toBeTruthy();
    expect(screen.queryByText('auth.newer_key')).toBeNull();
  });
});
