import type { PasskeyOptions, SecurityStatus, StepUpInput, TotpSetup, UserSession } from '@atelier/shared';
import { STEP_UP_FIELD } from '@atelier/shared/constants';
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, apiEnvelope } from '../../../lib/api-client';

type Message = { status: 'OK'; message: string };

export const securityKeys = {
  status: ['security', 'status'] as const,
  sessions: ['security', 'sessions'] as const,
};

/** True when a call was refused until the user proves their second factor again (errors.step_up). */
export const isStepUpError = (err: unknown): boolean => err instanceof ApiError && err.status === 403 && Boolean(err.field(STEP_UP_FIELD));

export const useSecurityStatus = () => useQuery({ queryKey: securityKeys.status, queryFn: () => api<SecurityStatus>('/api/user/security') });

export const useSessions = () => useQuery({ queryKey: securityKeys.sessions, queryFn: () => api<UserSession[]>('/api/user/sessions') });

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiEnvelope<Message>(`/api/user/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.sessions }),
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiEnvelope<Message>('/api/user/sessions/revoke-others', { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.sessions }),
  });
}

export const useTotpSetup = () => useMutation({ mutationFn: () => api<TotpSetup>('/api/user/2fa/setup', { method: 'POST' }) });

export function useTotpEnable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api<{ recovery_codes: string[] }>('/api/user/2fa/enable', { method: 'POST', body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.status }),
  });
}

/** New recovery codes replace the old ones (issue 29); shown once, like the first ones. */
export function useNewRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ recovery_codes: string[] }>('/api/user/2fa/recovery-codes', { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.status }),
  });
}

export function useTotpDisable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { password: string; code?: string }) => apiEnvelope<Message>('/api/user/2fa/disable', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.status }),
  });
}

/** POST /api/user/step-up: proves the second factor again for this session. */
export const stepUp = (input: StepUpInput) => apiEnvelope<Message>('/api/user/step-up', { method: 'POST', body: input });

/**
 * Step-up with a passkey: the server's challenge (limited to this user's passkeys) goes to the
 * browser, which asks the user to confirm; the signed answer proves the second factor again.
 */
export async function stepUpWithPasskey() {
  const options = await api<PasskeyOptions>('/api/user/step-up/passkey/options', { method: 'POST' });
  // The server sends @simplewebauthn/server's options as they are (passkeys.routes.ts); the contract types only their challenge.
  const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
  return apiEnvelope<Message>('/api/user/step-up/passkey', { method: 'POST', body: { response } });
}
