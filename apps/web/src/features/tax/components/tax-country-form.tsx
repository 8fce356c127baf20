import { type FormEvent, useEffect, useState } from 'react';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAuth } from '../../auth';
import { useSetTaxCountry } from '../api/tax';

/** The profile's country for VAT and a business's VAT number (issue 33: `PUT /api/user/tax-country`). */
export function TaxCountryForm() {
  const { t } = useTranslation();
  const toast = useToast();
  const user = useAuth().data?.user;
  const save = useSetTaxCountry();
  const [country, setCountry] = useState('');
  const [vatNumber, setVatNumber] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    setCountry(user?.tax_country ?? '');
    setVatNumber(user?.vat_number ?? '');
  }, [user?.tax_country, user?.vat_number]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    try {
      await save.mutateAsync({ country, vat_number: vatNumber.trim() || null });
      toast.success(t('tax.saved'));
    } catch (err) {
      const fields = err instanceof ApiError ? (err.errors ?? {}) : {};
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(fields)) out[k] = Array.isArray(v) ? String(v[0]) : String(v);
      setErrors(Object.keys(out).length ? out : { form: serverMessageOr(err, t('tax.save_failed')) });
    }
  }

  return (
    <form className="profile-card" onSubmit={submit} noValidate data-testid="tax-country-form">
      <h2>{t('tax.profile_title')}</h2>
      <p className="muted small">{t('tax.profile_hint')}</p>
      <label className="field">
        <span>{t('tax.country')}</span>
        <input value={country} onChange={(e) => setCountry(e.target.value.toUpperCase())} maxLength={2} placeholder="DE" aria-invalid={!!errors.country} />
        {errors.country && <span className="field-error">{errors.country}</span>}
      </label>
      <label className="field">
        <span>{t('tax.vat_number')}</span>
        <input value={vatNumber} onChange={(e) => setVatNumber(e.target.value)} maxLength={20} placeholder="DE136695976" aria-invalid={!!errors.vat_number} />
        {errors.vat_number && <span className="field-error">{errors.vat_number}</span>}
      </label>
      {errors.form && <p className="error-text">{errors.form}</p>}
      <button type="submit" className="button primary" disabled={save.isPending}>
        {t('tax.save')}
      </button>
    </form>
  );
}
