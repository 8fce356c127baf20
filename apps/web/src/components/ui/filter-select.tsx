import { useTranslation } from '../../lib/i18n-runtime';

/**
 * A labelled select that narrows a list (a status, a type): one option a value and, with `all`, the
 * empty value for every one, first or last as that list has always shown it.
 */
export function FilterSelect<T extends string>({
  label,
  value,
  onChange,
  options,
  optionLabel = (option) => option,
  all,
  className,
}: {
  label: string;
  value: T | '';
  onChange: (value: T) => void;
  options: readonly T[];
  optionLabel?: (option: T) => string;
  all?: 'first' | 'last';
  className?: string;
}) {
  const { t } = useTranslation();
  const allOption = <option value="">{t('admin.all')}</option>;
  return (
    <label className={className}>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value as T)}>
        {all === 'first' && allOption}
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
        {all === 'last' && allOption}
      </select>
    </label>
  );
}

/** The status filter of a back-office toolbar. */
export function StatusFilter<T extends string>(props: Omit<Parameters<typeof FilterSelect<T>>[0], 'label' | 'className'>) {
  const { t } = useTranslation();
  return <FilterSelect {...props} label={t('admin.status')} className="field-inline" />;
}
