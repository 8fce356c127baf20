import type { SellerDetails, SellerDetailsInput } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useSaveSellerDetails, useSellerDetails } from '../api/seller-details';

type Fields = {
  kind: 'individual' | 'business';
  legal_name: string;
  date_of_birth: string;
  line1: string;
  line2: string;
  city: string;
  post_code: string;
  country: string;
  tax_id: string;
  vat_id: string;
  registration_number: string;
};

const fromDetails = (d: SellerDetails | null | undefined): Fields => ({
  kind: d?.kind ?? 'individual',
  legal_name: d?.legal_name ?? '',
  date_of_birth: d?.date_of_birth ?? '',
  line1: d?.address.line1 ?? '',
  line2: d?.address.line2 ?? '',
  city: d?.address.city ?? '',
  post_code: d?.address.post_code ?? '',
  country: d?.address.country ?? '',
  tax_id: d?.tax_id ?? '',
  vat_id: d?.vat_id ?? '',
  registration_number: d?.registration_number ?? '',
});

/** The server's field path for each form field (the address fields are nested). */
const SERVER_FIELD: Record<keyof Fields, string> = {
  kind: 'kind',
  legal_name: 'legal_name',
  date_of_birth: 'date_of_birth',
  line1: 'address.line1',
  line2: 'address.line2',
  city: 'address.city',
  post_code: 'address.post_code',
  country: 'address.country',
  tax_id: 'tax_id',
  vat_id: 'vat_id',
  registration_number: 'registration_number',
};

/** Trader details (issue 33): asked before a creator's first listing or withdrawal; each field's message comes from the server. */
export function SellerDetailsForm() {
  const details = useSellerDetails();
  if (details.isPending) return null;
  return <DetailsForm initial={fromDetails(details.data)} given={Boolean(details.data)} />;
}

function DetailsForm({ initial, given }: { initial: Fields; given: boolean }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveSellerDetails();
  const [f, setF] = useState<Fields>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const set = (k: keyof Fields) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    setError(null);
    const business = f.kind === 'business';
    const input = {
      kind: f.kind,
      legal_name: f.legal_name,
      ...(business ? { registration_number: f.registration_number } : { date_of_birth: f.date_of_birth }),
      address: { line1: f.line1, ...(f.line2.trim() ? { line2: f.line2 } : {}), city: f.city, post_code: f.post_code, country: f.country },
      tax_id: f.tax_id,
      ...(f.vat_id.trim() ? { vat_id: f.vat_id } : {}),
    } as SellerDetailsInput;
    try {
      await save.mutateAsync(input);
      toast.success(t('sellers.saved'));
    } catch (err) {
      if (err instanceof ApiError) {
        const placed: Partial<Record<keyof Fields, string>> = {};
        for (const [k, path] of Object.entries(SERVER_FIELD)) {
          const m = err.field(path);
          if (m) placed[k as keyof Fields] = m;
        }
        setErrors(placed);
        if (Object.keys(placed).length) return;
      }
      setError(serverMessageOr(err, t('sellers.save_failed')));
    }
  }

  const field = (k: keyof Fields, label: string, extra: Record<string, unknown> = {}) => (
    <>
      <label className="field">
        <span>{label}</span>
        <input name={k} value={f[k]} onChange={set(k)} aria-invalid={errors[k] ? true : undefined} {...extra} />
      </label>
      {errors[k] && <span className="error-text small">{errors[k]}</span>}
    </>
  );

  return (
    <section className="panel" aria-labelledby="seller-details-title">
      <h2 id="seller-details-title">{t('sellers.title')}</h2>
      <p className="muted">{given ? t('sellers.intro_given') : t('sellers.intro')}</p>
      <form onSubmit={submit} className="report-form" noValidate data-testid="seller-details-form">
        <label className="field">
          <span>{t('sellers.kind')}</span>
          <select name="kind" value={f.kind} onChange={set('kind')}>
            <option value="individual">{t('sellers.kind_individual')}</option>
            <option value="business">{t('sellers.kind_business')}</option>
          </select>
        </label>
        {field('legal_name', t('sellers.legal_name'), { autoComplete: 'name' })}
        {f.kind === 'individual'
          ? field('date_of_birth', t('sellers.date_of_birth'), { type: 'date', autoComplete: 'bday' })
          : field('registration_number', t('sellers.registration_number'))}
        {field('line1', t('sellers.line1'), { autoComplete: 'address-line1' })}
        {field('line2', t('sellers.line2'), { autoComplete: 'address-line2' })}
        {field('city', t('sellers.city'), { autoComplete: 'address-level2' })}
        {field('post_code', t('sellers.post_code'), { autoComplete: 'postal-code' })}
        {field('country', t('sellers.country'), { autoComplete: 'country', maxLength: 2, placeholder: 'PT' })}
        {field('tax_id', t('sellers.tax_id'))}
        {field('vat_id', t('sellers.vat_id'))}
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <div>
          <button type="submit" className="button primary" disabled={save.isPending}>
            {t('sellers.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
