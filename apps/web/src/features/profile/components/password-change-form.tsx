import { type ChangePasswordInput, changePasswordInput } from '@atelier/shared/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Field, NewPasswordField } from '../../../components/ui/field';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useToast } from '../../../components/ui/toast';
import { applyServerErrors, messageOf } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useStepUp } from '../../security';
import { useChangePassword } from '../api/profile-actions';

export function PasswordChangeForm() {
  const { t } = useTranslation();
  const toast = useToast();
  const change = useChangePassword();
  // With two-factor sign-in on, a password change may first ask for a fresh code (issue 21).
  const stepUp = useStepUp();
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordInput),
    defaultValues: { cur_password: '', new_password: '', repeat_password: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        const answer = await stepUp.run(() => change.mutateAsync(values));
        toast.success(answer.message || t('profile.password_changed'));
        form.reset();
      } catch (err) {
        applyServerErrors(err, form.setError, ['cur_password', 'new_password', 'repeat_password']);
        toast.error(messageOf(err, t('profile.password_failed')));
      }
    },
    // SPEC §5 shows the first rule that fails as a toast too.
    (invalid) => {
      const first = invalid.cur_password?.message ?? invalid.new_password?.message ?? invalid.repeat_password?.message;
      if (first) toast.error(first);
    },
  );

  return (
    <section className="panel" aria-labelledby="password-title">
      <h2 id="password-title">{t('profile.change_password')}</h2>
      <form className="form-grid" onSubmit={onSubmit} noValidate>
        <Field
          label={t('profile.current_password')}
          type="password"
          autoComplete="current-password"
          error={errors.cur_password?.message}
          {...form.register('cur_password')}
        />
        <div className="form-grid two">
          <NewPasswordField label={t('auth.new_password')} error={errors.new_password?.message} {...form.register('new_password')} />
          <NewPasswordField repeat label={t('profile.repeat_password')} error={errors.repeat_password?.message} {...form.register('repeat_password')} />
        </div>
        <SubmitButton pending={change.isPending} label={t('profile.change_password')} />
      </form>
      {stepUp.dialog}
    </section>
  );
}
