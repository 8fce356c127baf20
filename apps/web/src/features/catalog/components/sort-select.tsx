import { useId } from 'react';
import { useTranslation } from '../../../lib/i18n-runtime';
import { SORTS } from '../catalog-url';

/** The catalogue's sort choice (the shop and a creator's works): `onChange` gets the sort's value. */
export function SortSelect({ value, onChange }: { value: string; onChange: (sort: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field-inline">
      <label htmlFor={id}>{t('products.sort')}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {SORTS.map((s) => (
          <option key={s.value} value={s.value}>
            {t(s.label)}
          </option>
        ))}
      </select>
    </div>
  );
}
