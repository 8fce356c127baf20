import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, envelopeOf, payloadOf } from '../../../lib/api-contract';
import { registrationAnswer } from '../../../lib/passkey-answer';

export const passkeysKey = ['security', 'passkeys'] as const;

/** GET /api/user/passkeys: the signed-in user's passkeys, oldest first. */
export function usePasskeys() {
  return useQuery({ queryKey: passkeysKey, queryFn: ({ signal }) => payloadOf(contract.GET('/api/user/passkeys', { signal })) });
}

/**
 * Adds a passkey: the server's options go to the browser (which asks the user to create the
 * passkey), and its answer goes back with the name the user gave.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const options = await payloadOf(contract.POST('/api/user/passkeys/options'));
      // The server sends @simplewebauthn/server's options as they are (passkeys.routes.ts); the contract types only their challenge.
      const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
      return envelopeOf(contract.POST('/api/user/passkeys', { body: { response: registrationAnswer(response), name } }));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      payloadOf(contract.PATCH('/api/user/passkeys/{id}', { params: { path: { id } }, body: { name } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => payloadOf(contract.DELETE('/api/user/passkeys/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}
