import type { SecondFactorMethod } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { Field } from '../../../components/ui/field';
import { SubmitButton } from '../../../components/ui/submit-button';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { passkeyProblem } from '../../../lib/passkey-errors';
import { useLoginTwoFactor, useLoginTwoFactorPasskey } from '../api/auth-actions';

/**
 * After the right password of an account with a second factor (issues 21 and 29): the account's own
 * methods, its passkey, a code from the app, or a recovery code. An expired first step sends the
 * visitor back to the password (`onRestart`).
 */
export function TwoFactorStep({ methods, onRestart }: { methods: SecondFactorMethod[]; onRestart: (message: string) => void }) {
  const { t } = useTranslation();
  const verify = useLoginTwoFactor();
  const passkey = useLoginTwoFactorPasskey();
  const hasCode = methods.includes('totp');
  const hasRecovery = methods.includes('recovery_code');
  const hasPasskey = methods.includes('passkey');
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [passkeyError, setPasskeyError] = useState<string>();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      await verify.mutateAsync(recovery ? { recovery_code: value } : { code: value });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return onRestart(err.message);
      setError(err instanceof ApiError ? (err.field(recovery ? 'recovery_code' : 'code') ?? err.field('code') ?? err.message) : t('auth.login_failed'));
    }
  }

  async function withPasskey() {
    setPasskeyError(undefined);
    try {
      await passkey.mutateAsync();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return onRestart(err.message);
      const problem = passkeyProblem(err);
      if (problem) setPasskeyError('text' in problem ? problem.text : t(problem.key));
    }
  }

  const intro = hasCode ? (recovery ? t('auth.two_factor_recovery_text') : t('auth.two_factor_text')) : t('auth.two_factor_passkey_text');
  return (
    <div className="form-grid">
      <h2 id="two-factor-step-title">{t('auth.two_factor_title')}</h2>
      <p className="muted">{hasPasskey && hasCode ? t('auth.two_factor_passkey_text') : intro}</p>
      {hasPasskey && (
        <div className="form-grid">
          <button type="button" className={hasCode ? 'button block' : 'button primary block'} disabled={passkey.isPending} onClick={() => void withPasskey()}>
            {passkey.isPending ? t('auth.processing') : t('auth.two_factor_use_passkey')}
          </button>
          {passkeyError && (
            <p className="field-error" role="alert">
              {passkeyError}
            </p>
          )}
        </div>
      )}
      {hasCode && (
        <form className="form-grid" onSubmit={submit} noValidate aria-labelledby="two-factor-step-title">
          {hasPasskey && <p className="muted">{t('auth.two_factor_or_code')}</p>}
          <Field
            key={recovery ? 'recovery' : 'code'}
            label={recovery ? t('security.recovery_code') : t('security.code')}
            inputMode={recovery ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            autoFocus={!hasPasskey}
            value={value}
            error={error}
            onChange={(e) => setValue(e.target.value)}
          />
          <SubmitButton pending={verify.isPending} disabled={!value.trim()} label={t('auth.verify_code')} block />
          {(hasRecovery || recovery) && (
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setRecovery(!recovery);
                setValue('');
                setError(undefined);
              }}
            >
              {recovery ? t('security.use_code') : t('security.use_recovery')}
            </button>
          )}
        </form>
      )}
    </div>
  );
}
