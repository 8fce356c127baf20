import { type RegisterInput, registerInput } from '@atelier/shared/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { Field, FormError, InlineError, NewPasswordField } from '../../../components/ui/field';
import { PhoneFormField } from '../../../components/ui/phone-field';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useToast } from '../../../components/ui/toast';
import { applyServerErrors, messageOf } from '../../../lib/form-errors';
import { Trans, useTranslation } from '../../../lib/i18n-runtime';
import { useStaticPages } from '../../site';
import { AlreadySignedInError, useRegister } from '../api/auth-actions';
import { useAuth } from '../api/auth-state';

const FIELDS = ['name', 'surname', 'email', 'phone', 'password', 'passConfirm', 'terms_agreed'] as const;

export function RegisterForm() {
  const { t } = useTranslation();
  const toast = useToast();
  const register = useRegister();
  const [params] = useSearchParams();
  // A signed-in user never sends this form (the page itself sends them on): no silent account switch.
  const signedIn = Boolean(useAuth().data?.authenticated) && !register.isPending;
  const pages = useStaticPages();
  const terms = pages.data?.find((p) => p.is_terms === 1);
  const privacy = pages.data?.find((p) => p.is_privacy === 1);
  const form = useForm<RegisterInput>({
    resolver: zodResolver(registerInput),
    // The box starts unticked: the schema takes only true (its message says why), so its type has no room for false.
    defaultValues: { name: '', surname: '', email: '', phone: '', password: '', passConfirm: '', terms_agreed: false as unknown as true },
  });
  const { errors } = form.formState;
  const redirect = params.get('redirect');

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await register.mutateAsync(values);
      // The errors of earlier tries are stale now: the new account is there.
      toast.clear('error');
      toast.success(t('auth.welcome_new', { name: values.name }));
    } catch (err) {
      if (err instanceof AlreadySignedInError) return toast.info(t('auth.already_signed_in'));
      const placed = applyServerErrors(err, form.setError, FIELDS);
      if (!placed) form.setError('root', { message: messageOf(err, t('auth.registration_failed')) });
      toast.error(placed ? t('auth.registration_failed') : messageOf(err, t('auth.registration_failed_retry')));
    }
  });

  return (
    <form className="form-grid" onSubmit={onSubmit} noValidate>
      <div className="form-grid two">
        <Field label={t('auth.first_name')} autoComplete="given-name" error={errors.name?.message} {...form.register('name')} />
        <Field label={t('auth.surname')} autoComplete="family-name" error={errors.surname?.message} {...form.register('surname')} />
      </div>
      <Field label={t('auth.email')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
      <PhoneFormField control={form.control} name="phone" id="register-phone" label={t('auth.phone')} error={errors.phone?.message} />
      <div className="form-grid two">
        <NewPasswordField label={t('auth.password')} error={errors.password?.message} {...form.register('password')} />
        <NewPasswordField repeat label={t('auth.confirm_password')} error={errors.passConfirm?.message} {...form.register('passConfirm')} />
      </div>
      <div>
        <label className="check">
          <input type="checkbox" {...form.register('terms_agreed')} aria-invalid={errors.terms_agreed ? true : undefined} />
          <span>
            <Trans
              i18nKey="auth.terms_agree"
              components={{
                terms: <Link to={`/page/${terms?.slug ?? 'terms'}`} target="_blank" rel="noopener" />,
                privacy: <Link to={`/page/${privacy?.slug ?? 'privacy'}`} target="_blank" rel="noopener" />,
              }}
            />
          </span>
        </label>
        <InlineError message={errors.terms_agreed?.message} />
      </div>
      <FormError message={errors.root?.message} />
      <SubmitButton pending={register.isPending} disabled={signedIn} label={t('auth.register')} block />
      <div className="auth-links">
        <Link to={redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login'}>{t('auth.have_account')}</Link>
      </div>
    </form>
  );
}
