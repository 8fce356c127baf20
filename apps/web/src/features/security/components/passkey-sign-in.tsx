import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, WebAuthnAbortService } from '@simplewebauthn/browser';
import { useEffect, useState } from 'react';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { passkeyProblem } from '../../../lib/passkey-errors';
import { usePasskeySignIn } from '../api/passkey-sign-in';
import './security.css';

/**
 * The login page's passkey sign-in: a 'Sign in with a passkey' button, and where the browser
 * supports it, the passkeys offered among the e-mail field's suggestions (that field's
 * autocomplete is "username webauthn").
 */
export function PasskeySignIn() {
  const { t } = useTranslation();
  const toast = useToast();
  const { start, finishing } = usePasskeySignIn();
  const [busy, setBusy] = useState(false);
  const [supported, setSupported] = useState(false);

  const tell = (err: unknown) => {
    const problem = passkeyProblem(err);
    if (problem) toast.error('text' in problem ? problem.text : t(problem.key));
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the autofill ceremony starts once per visit of the page.
  useEffect(() => {
    if (!browserSupportsWebAuthn()) return;
    setSupported(true);
    const stop = new AbortController();
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill()) || stop.signal.aborted) return;
      try {
        await start(true, stop.signal);
      } catch (err) {
        // A dismissed or replaced suggestion is no failure; a refused passkey is said.
        if (!stop.signal.aborted && err instanceof ApiError) tell(err);
      }
    })();
    return () => {
      stop.abort();
      WebAuthnAbortService.cancelCeremony();
    };
  }, []);

  if (!supported) return null;
  const onClick = async () => {
    setBusy(true);
    try {
      await start(false);
    } catch (err) {
      tell(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="passkey-sign-in">
      <p className="or">{t('auth.or')}</p>
      <button type="button" className="button block" disabled={busy || finishing} onClick={onClick}>
        {busy || finishing ? t('auth.processing') : t('auth.passkey_sign_in')}
      </button>
    </div>
  );
}
