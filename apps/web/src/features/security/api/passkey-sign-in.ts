import { type AuthenticationResponseJSON, type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { renewCsrfCookie } from '../../../lib/api-client';
import { contract, envelopeOf, payloadOf, quiet } from '../../../lib/api-contract';
import { signInAnswer } from '../../../lib/passkey-answer';
import { signInKey, useAfterSignIn } from '../../auth';

/**
 * Sign-in with a passkey and no password. `start(autofill)` asks the server for a challenge and the
 * browser for a passkey: from a click (a dialog), or with `autofill` through the e-mail field's
 * suggestions (conditional UI), which waits until the user picks one. Only the final call counts as
 * a sign-in in progress, so a waiting autofill does not hold the guest-only pages.
 */
export function usePasskeySignIn() {
  const after = useAfterSignIn();
  const finish = useMutation({
    mutationKey: signInKey,
    mutationFn: (response: AuthenticationResponseJSON) =>
      envelopeOf(contract.POST('/api/login/passkey', { body: { response: signInAnswer(response) }, ...quiet })),
    onSuccess: after,
  });
  const start = async (autofill: boolean, signal?: AbortSignal) => {
    // A fresh XSRF cookie first: the one in the browser may belong to a session ended elsewhere.
    await renewCsrfCookie();
    const options = await payloadOf(contract.POST('/api/login/passkey/options', { signal, ...quiet }));
    // The server sends @simplewebauthn/server's options as they are (passkeys.routes.ts); the contract types only their challenge.
    const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill: autofill });
    await finish.mutateAsync(response);
  };
  return { start, finishing: finish.isPending };
}
