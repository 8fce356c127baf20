import type { ForgotPasswordInput, LoginInput, LoginTwoFactorInput, RegisterInput, ResetPasswordInput, SiteSettings } from '@atelier/shared';
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { renewCsrfCookie } from '../../../lib/api-client';
import { contract, envelopeOf, payloadOf, quiet } from '../../../lib/api-contract';
import { signInAnswer } from '../../../lib/passkey-answer';
import { siteKeys } from '../../site';
import { type AuthState, authKey, fetchAuthState, markAccountBlocked, markNewAccount } from './auth-state';
import { safeRedirect, signInKey } from './sign-in-state';

/**
 * SPEC §4: after login or register, load the profile, then go to verify-email when verification is
 * on and the e-mail is unverified; otherwise to the redirect query, or the dashboard.
 */
export function useAfterSignIn(opts: { newAccount?: boolean } = {}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return async () => {
    const state = await fetchAuthState();
    queryClient.setQueryData<AuthState>(authKey, state);
    markAccountBlocked(false);
    const settings = queryClient.getQueryData<SiteSettings>(siteKeys.settings);
    const mustVerify = settings?.is_email_verification_enabled && state.user && !state.user.is_email_verified;
    // Awaited, so the request counts as running until the next page is there (useSigningIn).
    // A new account's first screen greets it (once).
    if (opts.newAccount) markNewAccount();
    await navigate(mustVerify ? '/email/verify' : (safeRedirect(params.get('redirect')) ?? '/dashboard'), { replace: true });
  };
}

/**
 * A sign-in form is for guests: when the session turns out to be signed in already (another tab, a
 * stale page), the form is not sent, so it never silently switches accounts. Answers whether it may go.
 */
async function stillAGuest(queryClient: QueryClient): Promise<boolean> {
  const cached = queryClient.getQueryData<AuthState>(authKey);
  if (cached?.authenticated) return false;
  const state = await fetchAuthState();
  if (!state.authenticated) return true;
  // The guest-only guard now sends the user on, as it does for any signed-in visitor.
  queryClient.setQueryData<AuthState>(authKey, state);
  return false;
}

/** Thrown instead of sending a sign-in form while signed in. */
export class AlreadySignedInError extends Error {
  constructor() {
    super('You are already signed in.');
    this.name = 'AlreadySignedInError';
  }
}

export function useLogin() {
  const queryClient = useQueryClient();
  const after = useAfterSignIn();
  return useMutation({
    mutationKey: signInKey,
    mutationFn: async (input: LoginInput) => {
      if (!(await stillAGuest(queryClient))) throw new AlreadySignedInError();
      // A fresh XSRF cookie first: the one in the browser may belong to a session ended elsewhere.
      await renewCsrfCookie();
      // quiet: a refused sign-in (a blocked account's 403) is told in the form, not by leaving the page.
      return envelopeOf(contract.POST('/api/login', { body: input, ...quiet }));
    },
    // With two-factor sign-in on, the password was only the first step: the form asks for the code next.
    onSuccess: (answer) => (answer.payload?.two_factor_required ? undefined : after()),
  });
}

/** The second step of a sign-in with 2FA on (issue 21): a code from the app or a recovery code. */
export function useLoginTwoFactor() {
  const after = useAfterSignIn();
  return useMutation({
    mutationKey: signInKey,
    // quiet: an expired first step (401) is told in the form, which goes back to the password.
    mutationFn: (input: LoginTwoFactorInput) => envelopeOf(contract.POST('/api/login/2fa', { body: input, ...quiet })),
    onSuccess: after,
  });
}

/**
 * The second step with a passkey (issue 29): the server offers this account's passkeys for the
 * password step that just passed; the browser asks the user to confirm; the answer finishes sign-in.
 */
export function useLoginTwoFactorPasskey() {
  const after = useAfterSignIn();
  return useMutation({
    mutationKey: signInKey,
    mutationFn: async () => {
      const options = await payloadOf(contract.POST('/api/login/2fa/passkey/options', quiet));
      // The server sends @simplewebauthn/server's options as they are (passkeys.routes.ts); the contract types only their challenge.
      const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
      return envelopeOf(contract.POST('/api/login/2fa/passkey', { body: { response: signInAnswer(response) }, ...quiet }));
    },
    onSuccess: after,
  });
}

export function useRegister() {
  const queryClient = useQueryClient();
  const after = useAfterSignIn({ newAccount: true });
  return useMutation({
    mutationKey: signInKey,
    mutationFn: async (input: RegisterInput) => {
      if (!(await stillAGuest(queryClient))) throw new AlreadySignedInError();
      await renewCsrfCookie();
      return envelopeOf(contract.POST('/api/register', { body: input }));
    },
    onSuccess: after,
  });
}

export const useForgotPassword = () =>
  useMutation({ mutationFn: (input: ForgotPasswordInput) => envelopeOf(contract.POST('/api/user/reset-password', { body: input })) });

export const useResetPassword = () =>
  useMutation({ mutationFn: (input: ResetPasswordInput) => envelopeOf(contract.POST('/api/reset-password', { body: input })) });

export const useResendVerification = () => useMutation({ mutationFn: () => envelopeOf(contract.POST('/api/email/verify/resend')) });

/** Opens a signed verification link: answers whether the address was already verified. */
export function verifyEmailLink(id: string, hash: string, search: string) {
  const link = new URLSearchParams(search);
  const query = { expires: Number(link.get('expires')), signature: link.get('signature') ?? '' };
  return payloadOf(contract.GET('/api/email/verify/{id}/{hash}', { params: { path: { id: Number(id), hash }, query }, ...quiet }));
}

export const useSendPhoneCode = () => useMutation({ mutationFn: () => envelopeOf(contract.POST('/api/verification/phone/send')) });

export function useVerifyPhone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => envelopeOf(contract.POST('/api/verification/phone/verify', { body: { code } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKey }),
  });
}
