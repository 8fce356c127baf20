import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from '../../../components/ui/modal';
import { PasswordConfirm } from '../../../components/ui/password-confirm';
import { useToast } from '../../../components/ui/toast';
import { messageOf } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useDeleteAccount } from '../api/profile-actions';

/** Deleting needs the password, in a confirmation dialog; success signs out and goes home (SPEC §4). */
export function DeleteAccount() {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const remove = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    try {
      const answer = await remove.mutateAsync(password);
      toast.success(answer.message || t('profile.deleted'));
      navigate('/', { replace: true });
    } catch (err) {
      const message = messageOf(err, t('profile.delete_failed'));
      setError(message);
      toast.error(message);
    }
  }

  return (
    <section className="panel danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">{t('profile.delete_account')}</h2>
      <p className="muted">{t('profile.delete_warning')}</p>
      <button type="button" className="button danger" onClick={() => setOpen(true)}>
        {t('profile.delete_account')}
      </button>
      {open && (
        <Modal title={t('profile.delete_confirm_title')} onClose={() => setOpen(false)}>
          <p>{t('profile.delete_confirm_text')}</p>
          <PasswordConfirm
            label={t('auth.password')}
            value={password}
            error={error ?? undefined}
            onChange={setPassword}
            onSubmit={confirm}
            onCancel={() => setOpen(false)}
            cancelLabel={t('profile.cancel')}
            confirmLabel={remove.isPending ? t('auth.processing') : t('profile.delete_forever')}
            pending={remove.isPending}
            danger
            actionsClassName="dialog-actions"
          />
        </Modal>
      )}
    </section>
  );
}
