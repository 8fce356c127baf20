import { type Passkey, type RenamePasskeyInput, renamePasskeyInput } from '@atelier/shared/passkeys';
import { zodResolver } from '@hookform/resolvers/zod';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field } from '../../../components/ui/field';
import { LoadFailed } from '../../../components/ui/load-states';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useToast } from '../../../components/ui/toast';
import { applyServerErrors } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { passkeyProblem } from '../../../lib/passkey-errors';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from '../api/passkeys';
import { isStepUpError } from '../api/security';
import { useStepUp } from './step-up-dialog';
import './security.css';

const when = (iso: string) => formatDateTime(Math.floor(Date.parse(iso) / 1000));

/** The Security tab's passkeys: the list (name, added, last used), adding one with a name, renaming and removing. */
export function PasskeysSection() {
  const { t } = useTranslation();
  const passkeys = usePasskeys();
  const supported = typeof window !== 'undefined' && browserSupportsWebAuthn();

  let list: React.ReactNode;
  if (passkeys.isPending) list = <div className="skeleton line" role="status" aria-label={t('app.loading')} />;
  else if (passkeys.isError) list = <LoadFailed message={t('passkeys.load_failed')} onRetry={() => passkeys.refetch()} />;
  else if (!passkeys.data.length) list = <p className="muted">{t('passkeys.none')}</p>;
  else
    list = (
      <ul className="passkey-list">
        {passkeys.data.map((p) => (
          <PasskeyRow key={p.id} passkey={p} />
        ))}
      </ul>
    );

  return (
    <section className="panel security-section" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t('passkeys.title')}</h2>
      <p className="muted">{t('passkeys.intro')}</p>
      {list}
      {supported ? <AddPasskeyForm /> : <p className="muted">{t('passkeys.unsupported')}</p>}
    </section>
  );
}

function AddPasskeyForm() {
  const { t } = useTranslation();
  const toast = useToast();
  const add = useAddPasskey();
  // Adding a passkey changes how the account signs in: a session must have proved itself lately (issue 29).
  const stepUp = useStepUp();
  const form = useForm<RenamePasskeyInput>({ resolver: zodResolver(renamePasskeyInput), defaultValues: { name: '' } });
  const onSubmit = form.handleSubmit(async ({ name }) => {
    try {
      await stepUp.run(() => add.mutateAsync(name));
      form.reset({ name: '' });
      toast.success(t('passkeys.added'));
    } catch (err) {
      if (isStepUpError(err)) return;
      if (applyServerErrors(err, form.setError, ['name'])) return;
      const problem = passkeyProblem(err);
      if (problem) toast.error('text' in problem ? problem.text : t(problem.key));
    }
  });
  return (
    <>
      <form className="passkey-add" onSubmit={onSubmit} noValidate>
        <Field
          label={t('passkeys.name_label')}
          placeholder={t('passkeys.name_placeholder')}
          maxLength={60}
          error={form.formState.errors.name?.message}
          {...form.register('name')}
        />
        <SubmitButton pending={add.isPending} label={t('passkeys.add')} />
      </form>
      {stepUp.dialog}
    </>
  );
}

function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const { t } = useTranslation();
  const toast = useToast();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const stepUp = useStepUp();
  const [mode, setMode] = useState<'view' | 'rename' | 'remove'>('view');
  const form = useForm<RenamePasskeyInput>({ resolver: zodResolver(renamePasskeyInput), defaultValues: { name: passkey.name } });

  const onRename = form.handleSubmit(async ({ name }) => {
    try {
      await stepUp.run(() => rename.mutateAsync({ id: passkey.id, name }));
      setMode('view');
      toast.success(t('passkeys.renamed'));
    } catch (err) {
      if (isStepUpError(err)) return;
      if (!applyServerErrors(err, form.setError, ['name'])) toast.error(t('passkeys.failed'));
    }
  });
  const onRemove = async () => {
    try {
      await stepUp.run(() => remove.mutateAsync(passkey.id));
      toast.success(t('passkeys.removed'));
    } catch (err) {
      if (!isStepUpError(err)) toast.error(t('passkeys.failed'));
    }
  };

  return (
    <li className="passkey-row" data-testid="passkey-row">
      {mode === 'rename' ? (
        <form className="passkey-rename" onSubmit={onRename} noValidate>
          <Field label={t('passkeys.new_name')} maxLength={60} error={form.formState.errors.name?.message} {...form.register('name')} />
          <div className="passkey-actions">
            <SubmitButton pending={rename.isPending} label={t('passkeys.save')} />
            <button type="button" className="button" onClick={() => setMode('view')}>
              {t('passkeys.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <div className="passkey-info">
            <strong className="passkey-name">{passkey.name}</strong>
            <span className="muted">
              {t('passkeys.created', { date: when(passkey.created_at) })} ·{' '}
              {passkey.last_used_at ? t('passkeys.last_used', { date: when(passkey.last_used_at) }) : t('passkeys.never_used')}
            </span>
          </div>
          {mode === 'remove' ? (
            <div className="passkey-actions" role="group" aria-label={t('passkeys.remove_confirm', { name: passkey.name })}>
              <span>{t('passkeys.remove_confirm', { name: passkey.name })}</span>
              <button type="button" className="button primary" disabled={remove.isPending} onClick={onRemove}>
                {t('passkeys.remove')}
              </button>
              <button type="button" className="button" onClick={() => setMode('view')}>
                {t('passkeys.cancel')}
              </button>
            </div>
          ) : (
            <div className="passkey-actions">
              <button
                type="button"
                className="button"
                aria-label={t('passkeys.rename_named', { name: passkey.name })}
                onClick={() => {
                  form.reset({ name: passkey.name });
                  setMode('rename');
                }}
              >
                {t('passkeys.rename')}
              </button>
              <button type="button" className="button" aria-label={t('passkeys.remove_named', { name: passkey.name })} onClick={() => setMode('remove')}>
                {t('passkeys.remove')}
              </button>
            </div>
          )}
        </>
      )}
      {stepUp.dialog}
    </li>
  );
}
