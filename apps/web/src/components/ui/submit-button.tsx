import { useTranslation } from '../../lib/i18n-runtime';

/** A form's primary submit button: disabled while its request runs, and saying so; `disabled` for any other reason. */
export function SubmitButton({ pending, label, block = false, disabled = false }: { pending: boolean; label: string; block?: boolean; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <button className={block ? 'button primary block' : 'button primary'} type="submit" disabled={pending || disabled}>
      {pending ? t('auth.processing') : label}
    </button>
  );
}
