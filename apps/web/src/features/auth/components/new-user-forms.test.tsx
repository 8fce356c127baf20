import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { contractChecked } from '../../../test/fake-api';
import { aProfile } from '../../../test/fixtures';
import { jsonAnswer, renderRouter, renderWithApp } from '../../../test/render';
import { PasswordChangeForm } from '../../profile';
import { siteKeys } from '../../site';
import { authKey } from '../api/auth-state';
import { ResetPasswordForm } from './password-recovery';
import { RegisterForm } from './register-form';

/** Stubs fetch: records every call and answers as the test says (a guest session unless `signedIn`). */
function fakeApi(opts: { register?: () => Response; signedIn?: () => boolean } = {}) {
  const posts: string[] = [];
  const fetch = vi.fn(
    contractChecked(async (url: string, init: RequestInit = {}) => {
      const path = new URL(url, 'http://x').pathname;
      if ((init.method ?? 'GET') !== 'GET') posts.push(path);
      if (path === '/sanctum/csrf-cookie') return new Response(null, { status: 204 });
      if (path === '/api/is-auth') return jsonAnswer(200, { status: 'OK', payload: { authenticated: opts.signedIn?.() ?? false } });
      if (path === '/api/user/profile')
        return jsonAnswer(200, {
          status: 'OK',
          payload: aProfile({ id: 1, name: 'Ana', surname: 'Silva', nickname: 'anasilva', email: 'ana@example.com' }),
        });
      if (path === '/api/register' && opts.register) return opts.register();
      return jsonAnswer(404, { status: 'ERROR', message: 'Not here.' });
    }),
  );
  vi.stubGlobal('fetch', fetch);
  return { fetch, posts };
}

const fill = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

function renderRegister() {
  const queryClient = createQueryClient();
  queryClient.setQueryData(authKey, { authenticated: false, user: null });
  queryClient.setQueryData(siteKeys.settings, { is_email_verification_enabled: false });
  queryClient.setQueryData(siteKeys.staticPages, []);
  const router = createMemoryRouter(
    [
      { path: '/register', element: <RegisterForm /> },
      { path: '/dashboard', element: <h1>Dashboard page</h1> },
    ],
    { initialEntries: ['/register'] },
  );
  return renderRouter(router, queryClient);
}

function fillRegister(values: Partial<Record<'phone' | 'password' | 'confirm', string>> = {}) {
  fill('First name', 'Ana');
  fill('Surname', 'Silva');
  fill('Email', 'ana@example.com');
  fill('Phone', values.phone ?? '+351 912 345 678');
  fill('Password', values.password ?? 'lantern-harbour-7');
  fill('Confirm password', values.confirm ?? values.password ?? 'lantern-harbour-7');
}
const submitRegister = () => fireEvent.click(screen.getByRole('button', { name: 'Register' }));
/** Ticks the terms box, then registers. */
function agreeAndRegister() {
  fireEvent.click(screen.getByRole('checkbox'));
  submitRegister();
}

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie.
  document.cookie = 'XSRF-TOKEN=t; path=/';
});
afterEach(() => vi.unstubAllGlobals());

describe('register form in the browser (issue 12)', () => {
  it('reports mismatched passwords at once, before the terms box is ticked', async () => {
    const api = fakeApi();
    renderRegister();
    fillRegister({ password: 'lantern-harbour-7', confirm: 'lantern-harbour-8' });
    submitRegister();
    expect(await screen.findByText('The passwords do not match.')).toBeTruthy();
    expect(screen.getByText('You must accept the terms and the privacy policy.')).toBeTruthy();
    expect(api.posts).toEqual([]);
  });

  it('refuses a phone that is only the country code, without asking the server', async () => {
    const api = fakeApi();
    renderRegister();
    fillRegister({ phone: '+351' });
    agreeAndRegister();
    const phone = screen.getByLabelText('Phone');
    await waitFor(() => expect(phone.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('The phone field is required.')).toBeTruthy();
    expect(api.posts).toEqual([]);
  });

  it('refuses a phone with too few digits in the browser', async () => {
    const api = fakeApi();
    renderRegister();
    fillRegister({ phone: '+351 91' });
    agreeAndRegister();
    expect(await screen.findByText('Please enter a valid phone number with its country code.')).toBeTruthy();
    expect(api.posts).toEqual([]);
  });

  it('applies the one password rule: 8 characters, and not a common password', async () => {
    const api = fakeApi();
    renderRegister();
    fillRegister({ password: 'short1' });
    agreeAndRegister();
    expect(await screen.findByText('The password must be at least 8 characters long.')).toBeTruthy();
    fill('Password', 'password123');
    fill('Confirm password', 'password123');
    submitRegister();
    expect(await screen.findByText('This password is too common. Please choose a less predictable one.')).toBeTruthy();
    expect(api.posts).toEqual([]);
  });

  it('clears the toasts of failed tries once the account is made, and greets the new user', async () => {
    let signedIn = false;
    let tries = 0;
    fakeApi({
      signedIn: () => signedIn,
      register: () => {
        tries += 1;
        if (tries === 1) return jsonAnswer(500, { status: 'ERROR', message: 'Something went wrong.' });
        signedIn = true;
        return jsonAnswer(200, { status: 'OK', message: 'Registered.' });
      },
    });
    const { router } = renderRegister();
    fillRegister();
    agreeAndRegister();
    await waitFor(() => expect(document.querySelectorAll('.toast[data-kind="error"]').length).toBe(1));
    expect(sessionStorage.getItem('atelier:new-account')).toBeNull();
    submitRegister();
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(sessionStorage.getItem('atelier:new-account')).toBe('1');
    expect(document.querySelectorAll('.toast[data-kind="error"]').length).toBe(0);
    const toasts = document.querySelector('.toasts') as HTMLElement;
    expect(within(toasts).getByText('Welcome to Atelier, Ana! Your account is ready.')).toBeTruthy();
  });
});

describe('reset password form (issue 12)', () => {
  it('without a token says the link is invalid at once and offers to send a new one', async () => {
    fakeApi();
    renderWithApp(<ResetPasswordForm />, { path: '/reset-password?email=ana%40example.com' });
    expect(screen.getByRole('alert').textContent).toMatch(/This reset link is invalid or incomplete/);
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ana@example.com');
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeTruthy();
  });

  it('with a token shows the form, and applies the one password rule', async () => {
    const api = fakeApi();
    renderWithApp(<ResetPasswordForm />, { path: '/reset-password?email=ana%40example.com&token=0123456789abcdef' });
    fill('New password', 'short1');
    fill('Confirm password', 'short1');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('The password must be at least 8 characters long.')).toBeTruthy();
    fill('New password', 'qwerty123');
    fill('Confirm password', 'qwerty123');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('This password is too common. Please choose a less predictable one.')).toBeTruthy();
    expect(api.posts).toEqual([]);
  });
});

describe('password change form (issue 12)', () => {
  it('applies the same rule: 8 characters, and not a common password', async () => {
    const api = fakeApi();
    renderWithApp(<PasswordChangeForm />);
    fill('Current password', 'old-one');
    fill('New password', 'abcdefg');
    fill('Repeat new password', 'abcdefg');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect((await screen.findAllByText('The password must be at least 8 characters long.')).length).toBeGreaterThan(0);
    fill('New password', 'iloveyou1');
    fill('Repeat new password', 'iloveyou1');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect((await screen.findAllByText('This password is too common. Please choose a less predictable one.')).length).toBeGreaterThan(0);
    expect(api.posts).toEqual([]);
  });
});
