import type { SecondFactorMethod } from '@atelier/shared';
import { type LoginInput, loginInput } from '@atelier/shared/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { Field } from '../../../components/ui/field';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { applyServerErrors, messageOf } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { AlreadySignedInError, useLogin } from '../api/auth-actions';
import { useAuth } from '../api/auth-state';
import { TwoFactorStep } from './two-factor-step';

export function LoginForm() {
  const { t } = useTranslation();
  const toast = useToast();
  const [params] = useSearchParams();
  const login = useLogin();
  // A signed-in user never sends this form (the page itself sends them on): no silent account switch.
  const signedIn = Boolean(useAuth().data?.authenticated) && !login.isPending;
  const form = useForm<LoginInput>({ resolver: zodResolver(loginInput), defaultValues: { username: '', password: '' } });
  const { errors } = form.formState;
  // The methods of the account whose password was right, while its second factor is asked for.
  const [secondStep, setSecondStep] = useState<SecondFactorMethod[] | null>(null);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await login.mutateAsync(values);
      if (answer.payload?.two_factor_required) setSecondStep(answer.payload.methods.length ? answer.payload.methods : ['totp', 'recovery_code']);
    } catch (err) {
      if (err instanceof AlreadySignedInError) return toast.info(t('auth.already_signed_in'));
      // One message, once: the server's sentence under the field it names, or else a toast (SPEC §8).
      if (applyServerErrors(err, form.setError, ['username', 'password'])) return;
      toast.error(err instanceof ApiError ? messageOf(err, t('auth.login_failed')) : t('auth.login_failed'));
    }
  });

  const redirect = params.get('redirect');
  if (secondStep)
    return (
      <TwoFactorStep
        methods={secondStep}
        onRestart={(message) => {
          setSecondStep(null);
          form.setValue('password', '');
          toast.error(message);
        }}
      />
    );
  return (
    <form className="form-grid" onSubmit={onSubmit} noValidate>
      <Field label={t('auth.email')} type="email" autoComplete="username webauthn" error={errors.username?.message} {...form.register('username')} />
      <Field label={t('auth.password')} type="password" autoComplete="current-password" error={errors.password?.message} {...form.register('password')} />
      <SubmitButton pending={login.isPending} disabled={signedIn} label={t('auth.sign_in')} block />
      <div className="auth-links">
        <Link to="/forgot-password">{t('auth.forgot_password')}</Link>
        <Link to={redirect ? `/register?redirect=${encodeURIComponent(redirect)}` : '/register'}>{t('auth.no_account')}</Link>
      </div>
    </form>
  );
}
