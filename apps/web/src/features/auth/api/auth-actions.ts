import type { ForgotPasswordInput, LoginInput, RegisterInput, ResetPasswordInput, SiteSettings } from '@atelier/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { api, apiEnvelope } from '../../../lib/api-client';
import { siteKeys } from '../../site/api/site-data';
import { type AuthState, authKey, fetchAuthState } from './auth-state';

type Message = { status: 'OK'; message: string };

/** Only same-site paths are followed after sign-in: never an absolute or protocol-relative URL. */
export function safeRedirect(target: string | null): string | null {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  return target;
}

/**
 * SPEC §4: after login or register, load the profile, then go to verify-email when verification is
 * on and the e-mail is unverified; otherwise to the redirect query, or the dashboard.
 */
function useAfterSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return async () => {
    const state = await fetchAuthState();
    queryClient.setQueryData<AuthState>(authKey, state);
    const settings = queryClient.getQueryData<SiteSettings>(siteKeys.settings);
    if (settings?.is_email_verification_enabled && state.user && !state.user.is_email_verified) navigate('/email/verify', { replace: true });
    else navigate(safeRedirect(params.get('redirect')) ?? '/dashboard', { replace: true });
  };
}

export function useLogin() {
  const after = useAfterSignIn();
  return useMutation({
    mutationFn: (input: LoginInput) => apiEnvelope<Message>('/api/login', { method: 'POST', body: input }),
    onSuccess: after,
  });
}

export function useRegister() {
  const after = useAfterSignIn();
  return useMutation({
    mutationFn: (input: RegisterInput) => apiEnvelope<Message>('/api/register', { method: 'POST', body: input }),
    onSuccess: after,
  });
}

export const useForgotPassword = () =>
  useMutation({ mutationFn: (input: ForgotPasswordInput) => apiEnvelope<Message>('/api/user/reset-password', { method: 'POST', body: input }) });

export const useResetPassword = () =>
  useMutation({ mutationFn: (input: ResetPasswordInput) => apiEnvelope<Message>('/api/reset-password', { method: 'POST', body: input }) });

export const useResendVerification = () => useMutation({ mutationFn: () => apiEnvelope<Message>('/api/email/verify/resend', { method: 'POST' }) });

/** Opens a signed verification link: answers whether the address was already verified. */
export function verifyEmailLink(id: string, hash: string, search: string) {
  return api<{ already_verified: boolean }>(`/api/email/verify/${encodeURIComponent(id)}/${encodeURIComponent(hash)}${search}`, { quiet: true });
}

export const useSendPhoneCode = () => useMutation({ mutationFn: () => apiEnvelope<Message>('/api/verification/phone/send', { method: 'POST' }) });

export function useVerifyPhone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiEnvelope<Message>('/api/verification/phone/verify', { method: 'POST', body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKey }),
  });
}
