import { type ReactNode, useCallback, useState } from 'react';
import { Field } from '../../../components/ui/field';
import { FormActions } from '../../../components/ui/form-actions';
import { Modal } from '../../../components/ui/modal';
import { PasswordConfirm } from '../../../components/ui/password-confirm';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { passkeyProblem } from '../../../lib/passkey-errors';
import { isStepUpError, stepUp, stepUpWithPasskey, useSecurityStatus } from '../api/security';
import './security.css';

type Props = { onDone: () => void; onCancel: () => void };

/**
 * Asks for the second factor again (issue 21): the passkey on this device when the user has one,
 * and a code from the app or a recovery code when 2FA is on (posted to /api/user/step-up); an account
 * with neither confirms with its password (issue 29). Shown by `useStepUp` when a sensitive change
 * answers with errors.step_up.
 */
export function StepUpDialog({ onDone, onCancel }: Props) {
  const { t } = useTranslation();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const status = useSecurityStatus().data;
  const hasPasskey = status?.has_passkey ?? false;
  // An account with no second factor proves itself with its password (issue 29).
  const passwordOnly = status !== undefined && !status.totp_enabled && !status.has_passkey;
  const hasCode = !passwordOnly && (status?.totp_enabled ?? true);

  async function withPasskey() {
    setPending(true);
    setError(undefined);
    try {
      await stepUpWithPasskey();
      onDone();
    } catch (err) {
      const problem = passkeyProblem(err);
      if (problem) setError('text' in problem ? problem.text : t(problem.key));
    } finally {
      setPending(false);
    }
  }

  async function submit(e?: React.FormEvent) {
    e?.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      await stepUp(passwordOnly ? { password: value } : useRecovery ? { recovery_code: value } : { code: value });
      onDone();
    } catch (err) {
      const field = passwordOnly ? 'password' : useRecovery ? 'recovery_code' : 'code';
      const message = err instanceof ApiError ? (err.field(field) ?? err.field('code') ?? err.message) : t('security.failed');
      setError(message);
    } finally {
      setPending(false);
    }
  }

  return (
    <Modal title={t('security.step_up_title')} onClose={onCancel} className="step-up-dialog">
      {hasPasskey && (
        <div className="form-grid">
          <p className="muted">{t('security.step_up_passkey_text')}</p>
          <button type="button" className={hasCode ? 'button' : 'button primary'} disabled={pending} onClick={withPasskey}>
            {t('security.step_up_use_passkey')}
          </button>
          {!hasCode && error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          {!hasCode && (
            <div className="step-up-actions">
              <button type="button" className="button" onClick={onCancel}>
                {t('security.cancel')}
              </button>
            </div>
          )}
        </div>
      )}
      {passwordOnly && (
        <>
          <p className="muted">{t('security.step_up_password_text')}</p>
          <PasswordConfirm
            label={t('security.password')}
            value={value}
            error={error}
            onChange={setValue}
            onSubmit={() => submit()}
            onCancel={onCancel}
            cancelLabel={t('security.cancel')}
            confirmLabel={t('security.confirm')}
            pending={pending}
            actionsClassName="step-up-actions"
          />
        </>
      )}
      {hasCode && (
        <>
          <p className="muted">{hasPasskey ? t('security.step_up_or_code') : t('security.step_up_text')}</p>
          <form className="form-grid" onSubmit={submit} noValidate>
            <Field
              key={useRecovery ? 'recovery' : 'code'}
              label={useRecovery ? t('security.recovery_code') : t('security.code')}
              inputMode={useRecovery ? 'text' : 'numeric'}
              autoComplete="one-time-code"
              value={value}
              error={error}
              onChange={(e) => setValue(e.target.value)}
            />
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setUseRecovery(!useRecovery);
                setValue('');
                setError(undefined);
              }}
            >
              {useRecovery ? t('security.use_code') : t('security.use_recovery')}
            </button>
            <FormActions
              className="step-up-actions"
              cancelLabel={t('security.cancel')}
              onCancel={onCancel}
              submitLabel={t('security.confirm')}
              busy={pending || !value.trim()}
            />
          </form>
        </>
      )}
    </Modal>
  );
}

/**
 * Wraps a sensitive call: when the server asks for a step-up, the dialog opens, and after the code is
 * accepted the call runs once more. Cancelling rejects with the original error. Render `dialog`.
 */
export function useStepUp(): { run: <T>(call: () => Promise<T>) => Promise<T>; dialog: ReactNode } {
  const [pending, setPending] = useState<{ resolve: () => void; reject: () => void } | null>(null);
  const run = useCallback(async <T,>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      if (!isStepUpError(err)) throw err;
      await new Promise<void>((resolve, reject) => setPending({ resolve, reject: () => reject(err) }));
      return call();
    }
  }, []);
  const dialog = pending ? (
    <StepUpDialog
      onDone={() => {
        setPending(null);
        pending.resolve();
      }}
      onCancel={() => {
        setPending(null);
        pending.reject();
      }}
    />
  ) : null;
  return { run, dialog };
}
