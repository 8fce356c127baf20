import { type UpdateProfileInput, updateProfileInput } from '@atelier/shared/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { type Resolver, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Field, FormError, TextAreaField } from '../../../components/ui/field';
import { PhoneFormField } from '../../../components/ui/phone-field';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useToast } from '../../../components/ui/toast';
import { applyServerErrors, messageOf } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAuth } from '../../auth';
import { useUpdateProfile } from '../api/profile-actions';

const FIELDS = ['name', 'surname', 'email', 'phone', 'about_me', 'hourly_rate', 'nickname'] as const;

export function PersonalDetailsForm() {
  const { t } = useTranslation();
  const toast = useToast();
  const user = useAuth().data?.user;
  const update = useUpdateProfile();
  const form = useForm<UpdateProfileInput>({
    resolver: zodResolver(updateProfileInput) as Resolver<UpdateProfileInput>,
    values: user
      ? {
          name: user.name,
          surname: user.surname,
          email: user.email,
          phone: user.phone,
          about_me: user.about_me,
          hourly_rate: user.hourly_rate,
          nickname: user.nickname,
        }
      : undefined,
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await update.mutateAsync(values);
      toast.success(answer.message ?? t('profile.updated'));
    } catch (err) {
      applyServerErrors(err, form.setError, FIELDS);
      toast.error(messageOf(err, t('profile.update_failed')));
    }
  });

  return (
    <section className="panel form-panel" aria-labelledby="details-title">
      <h2 id="details-title">{t('profile.personal_details')}</h2>
      <form className="form-grid" onSubmit={onSubmit} noValidate>
        <div className="form-grid two">
          <Field label={t('auth.first_name')} autoComplete="given-name" error={errors.name?.message} {...form.register('name')} />
          <Field label={t('auth.surname')} autoComplete="family-name" error={errors.surname?.message} {...form.register('surname')} />
        </div>
        <div className="form-grid two">
          <Field label={t('auth.email')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
          <PhoneFormField
            control={form.control}
            name="phone"
            id="profile-phone"
            label={t('auth.phone')}
            error={errors.phone?.message}
            hint={
              user?.phone && !user.is_phone_verified ? (
                <>
                  {t('profile.phone_unverified')} <Link to="/verification">{t('profile.phone_verify_link')}</Link>
                </>
              ) : user?.phone && user.is_phone_verified ? (
                t('profile.phone_verified')
              ) : undefined
            }
          />
        </div>
        <div className="form-grid two">
          <Field label={t('profile.nickname')} error={errors.nickname?.message} {...form.register('nickname')} />
          <Field label={t('profile.hourly_rate')} type="number" step="0.01" min="0" error={errors.hourly_rate?.message} {...form.register('hourly_rate')} />
        </div>
        <TextAreaField id="about-me" label={t('profile.about_me')} maxLength={2000} error={errors.about_me?.message} {...form.register('about_me')} />
        <FormError message={errors.root?.message} />
        <SubmitButton pending={update.isPending} label={t('profile.save')} />
      </form>
    </section>
  );
}
