import { useTranslation } from 'react-i18next';

/** A form's primary submit button: disabled while its request runs, and saying so. */
export function SubmitButton({ pending, label, block = false }: { pending: boolean; label: string; block?: boolean }) {
  const { t } = useTranslation();
  return (
    <button className={block ? 'button primary block' : 'button primary'} type="submit" disabled={pending}>
      {pending ? t('auth.processing') : label}
    </button>
  );
}
