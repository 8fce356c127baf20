import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { aProfile } from '../../../test/fixtures';
import { jsonAnswer, renderRouter } from '../../../test/render';
import { passkeyAssertion } from '../testing/passkey-answers';
import { PasskeySignIn } from './passkey-sign-in';

const browser = vi.hoisted(() => ({ supported: true, autofill: false, startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: () => browser.supported,
  browserSupportsWebAuthnAutofill: async () => browser.autofill,
  startAuthentication: browser.startAuthentication,
  WebAuthnAbortService: { cancelCeremony: () => undefined },
}));

afterEach(() => {
  vi.unstubAllGlobals();
  browser.supported = true;
  browser.autofill = false;
  browser.startAuthentication.mockReset();
});

function renderLoginPage() {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <PasskeySignIn /> },
      { path: '/dashboard', element: <h1>Dashboard</h1> },
    ],
    { initialEntries: ['/login'] },
  );
  return renderRouter(router);
}

const signInApi = (answer: () => Response) =>
  fakeApi({
    'GET /sanctum/csrf-cookie': () => new Response(null, { status: 204 }),
    'POST /api/login/passkey/options': () => okAnswer({ challenge: 'xyz', rpId: 'localhost' }),
    'POST /api/login/passkey': answer,
    'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
    'GET /api/user/profile': () => okAnswer(aProfile({ id: 1, name: 'Pia', surname: 'S', nickname: 'pia', email: 'pia@example.com' })),
  });

describe("the login page's passkey sign-in (issue 21)", () => {
  it("signs in with the passkey the browser gives, and no password, from 'Sign in with a passkey'", async () => {
    browser.startAuthentication.mockResolvedValue(passkeyAssertion);
    const calls = signInApi(() => jsonAnswer(200, { status: 'OK', message: 'Welcome back, Pia!' }));
    const { router } = renderLoginPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'xyz', rpId: 'localhost' }, useBrowserAutofill: false });
    expect(calls.find((c) => c.path === '/api/login/passkey')?.body).toEqual({ response: passkeyAssertion });
  });

  it('offers passkeys in the e-mail field where the browser supports it', async () => {
    browser.autofill = true;
    browser.startAuthentication.mockResolvedValue(passkeyAssertion);
    signInApi(() => jsonAnswer(200, { status: 'OK', message: 'Welcome back, Pia!' }));
    const { router } = renderLoginPage();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(browser.startAuthentication).toHaveBeenCalledWith(expect.objectContaining({ useBrowserAutofill: true }));
  });

  it("shows the server's refusal and stays on the page", async () => {
    browser.startAuthentication.mockResolvedValue(passkeyAssertion);
    const refusal = 'This passkey is not registered with Atelier. Sign in with your password, then add it on the Security tab.';
    signInApi(() => jsonAnswer(422, { status: 'ERROR', message: 'The given data was invalid.', errors: { response: [refusal] } }));
    const { router } = renderLoginPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows nothing in a browser without passkeys', () => {
    signInApi(() => jsonAnswer(500, {}));
    // Support is known as the page renders: a browser with passkeys has the button at once…
    const { unmount } = renderLoginPage();
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeTruthy();
    unmount();
    // …and one without has none.
    browser.supported = false;
    renderLoginPage();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
  });
});
