import type { StepUpInput } from '@atelier/shared';
import { STEP_UP_FIELD } from '@atelier/shared/constants';
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { contract, envelopeOf, payloadOf } from '../../../lib/api-contract';
import { signInAnswer } from '../../../lib/passkey-answer';

export const securityKeys = {
  status: ['security', 'status'] as const,
  sessions: ['security', 'sessions'] as const,
};

/** True when a call was refused until the user proves their second factor again (errors.step_up). */
export const isStepUpError = (err: unknown): boolean => err instanceof ApiError && err.status === 403 && Boolean(err.field(STEP_UP_FIELD));

export const useSecurityStatus = () => useQuery({ queryKey: securityKeys.status, queryFn: () => payloadOf(contract.GET('/api/user/security')) });

export const useSessions = () => useQuery({ queryKey: securityKeys.sessions, queryFn: () => payloadOf(contract.GET('/api/user/sessions')) });

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => envelopeOf(contract.DELETE('/api/user/sessions/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.sessions }),
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => envelopeOf(contract.POST('/api/user/sessions/revoke-others')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.sessions }),
  });
}

export const useTotpSetup = () => useMutation({ mutationFn: () => payloadOf(contract.POST('/api/user/2fa/setup')) });

export function useTotpEnable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => payloadOf(contract.POST('/api/user/2fa/enable', { body: { code } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.status }),
  });
}

/** New recovery codes replace the old ones (issue 29); shown once, like the first ones. */
export function useNewRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => payloadOf(contract.POST('/api/user/2fa/recovery-codes')),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.status }),
  });
}

export function useTotpDisable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { password: string; code?: string }) => envelopeOf(contract.POST('/api/user/2fa/disable', { body: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.status }),
  });
}

/** POST /api/user/step-up: proves the second factor again for this session. */
export const stepUp = (input: StepUpInput) => envelopeOf(contract.POST('/api/user/step-up', { body: input }));

/**
 * Step-up with a passkey: the server's challenge (limited to this user's passkeys) goes to the
 * browser, which asks the user to confirm; the signed answer proves the second factor again.
 */
export async function stepUpWithPasskey() {
  const options = await payloadOf(contract.POST('/api/user/step-up/passkey/options'));
  // The server sends @simplewebauthn/server's options as they are (passkeys.routes.ts); the contract types only their challenge.
  const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
  return envelopeOf(contract.POST('/api/user/step-up/passkey', { body: { response: signInAnswer(response) } }));
}
