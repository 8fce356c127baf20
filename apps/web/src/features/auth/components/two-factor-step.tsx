import { type FormEvent, useState } from 'react';
import { Field } from '../../../components/ui/field';
import { SubmitButton } from '../../../components/ui/submit-button';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useLoginTwoFactor } from '../api/auth-actions';

/**
 * After the right password with two-factor sign-in on (issue 21): a code from the app, or a
 * recovery code. An expired first step sends the visitor back to the password (`onRestart`).
 */
export function TwoFactorStep({ onRestart }: { onRestart: (message: string) => void }) {
  const { t } = useTranslation();
  const verify = useLoginTwoFactor();
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();

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

  return (
    <form className="form-grid" onSubmit={submit} noValidate aria-labelledby="two-factor-step-title">
      <h2 id="two-factor-step-title">{t('auth.two_factor_title')}</h2>
      <p className="muted">{recovery ? t('auth.two_factor_recovery_text') : t('auth.two_factor_text')}</p>
      <Field
        key={recovery ? 'recovery' : 'code'}
        label={recovery ? t('security.recovery_code') : t('security.code')}
        inputMode={recovery ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        autoFocus
        value={value}
        error={error}
        onChange={(e) => setValue(e.target.value)}
      />
      <SubmitButton pending={verify.isPending} disabled={!value.trim()} label={t('auth.verify_code')} block />
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
    </form>
  );
}
