import type { AddedPasskey, Passkey, PasskeyOptions } from '@atelier/shared';
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiEnvelope } from '../../../lib/api-client';

export const passkeysKey = ['security', 'passkeys'] as const;

/** GET /api/user/passkeys: the signed-in user's passkeys, oldest first. */
export function usePasskeys() {
  return useQuery({ queryKey: passkeysKey, queryFn: ({ signal }) => api<Passkey[]>('/api/user/passkeys', { signal }) });
}

/**
 * Adds a passkey: the server's options go to the browser (which asks the user to create the
 * passkey), and its answer goes back with the name the user gave.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const options = await api<PasskeyOptions>('/api/user/passkeys/options', { method: 'POST' });
      // The server sends @simplewebauthn/server's options as they are (passkeys.routes.ts); the contract types only their challenge.
      const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
      return apiEnvelope<AddedPasskey>('/api/user/passkeys', { method: 'POST', body: { response, name } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => api<Passkey>(`/api/user/passkeys/${id}`, { method: 'PATCH', body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/api/user/passkeys/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}
