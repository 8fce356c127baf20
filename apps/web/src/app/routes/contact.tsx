import { type ContactInput, contactInput } from '@atelier/shared/settings';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Field, TextAreaField } from '../../components/ui/field';
import { MailIcon } from '../../components/ui/icons';
import { useToast } from '../../components/ui/toast';
import { useSettings } from '../../features/site';
import { ApiError } from '../../lib/api-client';
import { contract, payloadOf } from '../../lib/api-contract';
import { useTranslation } from '../../lib/i18n-runtime';

export function Component() {
  const { t } = useTranslation();
  const toast = useToast();
  const settings = useSettings();
  const form = useForm<ContactInput>({ resolver: zodResolver(contactInput), defaultValues: { name: '', email: '', message: '' } });
  const { errors } = form.formState;
  const send = useMutation({
    mutationFn: (body: ContactInput) => payloadOf(contract.POST('/api/contact', { body })),
    onSuccess: () => {
      toast.success(t('contact.sent'));
      form.reset();
    },
    onError: (err) => {
      // Server field errors go under their fields (SPEC §5: the first message of each).
      let placed = false;
      if (err instanceof ApiError) {
        for (const field of ['name', 'email', 'message'] as const) {
          const message = err.field(field);
          if (message) {
            form.setError(field, { message });
            placed = true;
          }
        }
      }
      if (!placed) toast.error(err.message || t('contact.failed'));
    },
  });

  const support = settings.data?.support_email;
  return (
    <section className="page contact">
      <div className="contact-copy">
        <h1>{t('pages.contact_title')}</h1>
        <p className="muted">{t('contact.intro')}</p>
        {support && (
          <p>
            {t('contact.or_email')}{' '}
            <a className="inline-mail" href={`mailto:${support}`}>
              <MailIcon /> {support}
            </a>
          </p>
        )}
      </div>
      <form className="form-card" noValidate onSubmit={form.handleSubmit((values) => send.mutate(values))}>
        <Field id="contact-name" label={t('contact.name')} autoComplete="name" error={errors.name?.message} {...form.register('name')} />
        <Field id="contact-email" label={t('contact.email')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <TextAreaField id="contact-message" label={t('contact.message')} rows={6} error={errors.message?.message} {...form.register('message')} />
        <button type="submit" className="button primary" disabled={send.isPending}>
          {send.isPending ? t('contact.sending') : t('contact.send')}
        </button>
      </form>
    </section>
  );
}
