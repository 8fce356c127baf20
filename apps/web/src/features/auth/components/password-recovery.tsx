import { type ForgotPasswordInput, forgotPasswordInput, type ResetPasswordInput, resetPasswordInput } from '@atelier/shared/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Field, FormError, NewPasswordField } from '../../../components/ui/field';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useToast } from '../../../components/ui/toast';
import { applyServerErrors, messageOf } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useForgotPassword, useResetPassword } from '../api/auth-actions';

export function ForgotPasswordForm({ email = '', intro }: { email?: string; intro?: string }) {
  const { t } = useTranslation();
  const forgot = useForgotPassword();
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm<ForgotPasswordInput>({ resolver: zodResolver(forgotPasswordInput), defaultValues: { email } });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      setSent((await forgot.mutateAsync(values)).message);
    } catch (err) {
      if (!applyServerErrors(err, form.setError, ['email'])) form.setError('root', { message: messageOf(err, t('auth.reset_request_failed')) });
    }
  });

  if (sent) {
    return (
      <div className="form-grid">
        <p role="status">{sent}</p>
        <Link className="button block" to="/login">
          {t('auth.back_to_login')}
        </Link>
      </div>
    );
  }
  return (
    <form className="form-grid" onSubmit={onSubmit} noValidate>
      <p className="auth-note">{intro ?? t('auth.forgot_intro')}</p>
      <Field label={t('auth.email')} type="email" autoComplete="email" error={form.formState.errors.email?.message} {...form.register('email')} />
      <FormError message={form.formState.errors.root?.message} />
      <SubmitButton pending={forgot.isPending} label={t('auth.send_reset_link')} block />
      <div className="auth-links">
        <Link to="/login">{t('auth.back_to_login')}</Link>
      </div>
    </form>
  );
}

/** A reset link without a usable token: said at once, with the form that sends a new link. */
function InvalidResetLink({ email }: { email: string }) {
  const { t } = useTranslation();
  return (
    <div className="form-grid" data-testid="reset-link-invalid">
      <p className="form-error" role="alert">
        {t('auth.reset_link_invalid')}
      </p>
      <ForgotPasswordForm email={email} intro={t('auth.reset_link_new')} />
    </div>
  );
}

export function ResetPasswordForm() {
  const [params] = useSearchParams();
  // The same rule the form would apply on submit, applied before anything is typed.
  if (!resetPasswordInput.shape.token.safeParse(params.get('token') ?? '').success) return <InvalidResetLink email={params.get('email') ?? ''} />;
  return <ResetPasswordFields />;
}

function ResetPasswordFields() {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const reset = useResetPassword();
  const form = useForm<ResetPasswordInput>({
    resolver: zodResolver(resetPasswordInput),
    defaultValues: { email: params.get('email') ?? '', token: params.get('token') ?? '', password: '', password_confirmation: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await reset.mutateAsync(values);
      toast.success(answer.message);
      navigate('/login', { replace: true });
    } catch (err) {
      if (!applyServerErrors(err, form.setError, ['email', 'password', 'password_confirmation', 'token'])) {
        form.setError('root', { message: messageOf(err, t('auth.reset_failed')) });
      }
    }
  });

  return (
    <form className="form-grid" onSubmit={onSubmit} noValidate>
      <Field label={t('auth.email')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
      <NewPasswordField label={t('auth.new_password')} error={errors.password?.message} {...form.register('password')} />
      <NewPasswordField repeat label={t('auth.confirm_password')} error={errors.password_confirmation?.message} {...form.register('password_confirmation')} />
      <FormError message={errors.token?.message ?? errors.root?.message} />
      <SubmitButton pending={reset.isPending} label={t('auth.set_password')} block />
      <div className="auth-links">
        <Link to="/forgot-password">{t('auth.new_reset_link')}</Link>
      </div>
    </form>
  );
}
