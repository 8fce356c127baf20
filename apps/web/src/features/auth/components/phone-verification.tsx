import { verifyPhoneInput } from '@atelier/shared/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Field, FormError } from '../../../components/ui/field';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useToast } from '../../../components/ui/toast';
import { applyServerErrors, messageOf } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useSendPhoneCode, useVerifyPhone } from '../api/auth-actions';
import { useAuth } from '../api/auth-state';

/** The verification route: a 6-digit code sent to the profile's phone. */
export function PhoneVerification() {
  const { t } = useTranslation();
  const toast = useToast();
  const user = useAuth().data?.user;
  const send = useSendPhoneCode();
  const verify = useVerifyPhone();
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<{ code: string }>({ resolver: zodResolver(verifyPhoneInput), defaultValues: { code: '' } });

  if (user?.is_phone_verified || done) {
    return (
      <div className="form-grid">
        <p role="status">{done ?? t('auth.phone_verified')}</p>
        <Link className="button primary block" to="/dashboard">
          {t('payment.go_dashboard')}
        </Link>
      </div>
    );
  }
  if (!user?.phone) {
    return (
      <div className="form-grid">
        <p>{t('auth.phone_missing')}</p>
        <Link className="button primary block" to="/dashboard/contact">
          {t('dashboard.contact_information')}
        </Link>
      </div>
    );
  }

  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      setDone((await verify.mutateAsync(code)).message);
    } catch (err) {
      if (!applyServerErrors(err, form.setError, ['code'])) form.setError('root', { message: messageOf(err, t('auth.phone_failed')) });
    }
  });

  return (
    <div className="form-grid">
      <p>{t('auth.phone_intro', { phone: user.phone })}</p>
      <button
        type="button"
        className="button block"
        disabled={send.isPending}
        onClick={() =>
          send.mutate(undefined, { onSuccess: (a) => setSentMessage(a.message), onError: (err) => toast.error(messageOf(err, t('auth.phone_failed'))) })
        }
      >
        {sentMessage ? t('auth.phone_resend') : t('auth.phone_send')}
      </button>
      {sentMessage && <p role="status">{sentMessage}</p>}
      <form className="form-grid" onSubmit={onSubmit} noValidate>
        <Field
          className="code-input"
          label={t('auth.phone_code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          error={form.formState.errors.code?.message}
          {...form.register('code')}
        />
        <FormError message={form.formState.errors.root?.message} />
        <SubmitButton pending={verify.isPending} label={t('auth.phone_verify')} block />
      </form>
    </div>
  );
}
