import { type FormEvent, useEffect, useId, useState } from 'react';
import { Field } from '../../../components/ui/field';
// The forms bring their own styles: the Earnings tab shows them without My projects having loaded.
import { FormActions } from '../../../components/ui/form-actions';
import { Spinner } from '../../../components/ui/spinner';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useSettings } from '../../site';
import { useContactDetails, useCountries } from '../api/offers';
import { useRevealErrors } from './reveal-errors';
import './offers.css';

/** How a creator is paid out: to a card, or by bank transfer (SEPA). */
export type PayoutMethod = 'card' | 'sepa';

export const CONTACT_FIELDS = ['first_name', 'last_name', 'email', 'phone', 'address', 'city', 'post_code', 'country'] as const;
type ContactField = (typeof CONTACT_FIELDS)[number];
export type Contact = Record<ContactField, string>;

const EMPTY_CONTACT: Contact = { first_name: '', last_name: '', email: '', phone: '', address: '', city: '', post_code: '', country: '' };
const INPUT_TYPE: Partial<Record<ContactField, string>> = { email: 'email', phone: 'tel' };
const AUTOCOMPLETE: Record<ContactField, string> = {
  first_name: 'given-name',
  last_name: 'family-name',
  email: 'email',
  phone: 'tel',
  address: 'street-address',
  city: 'address-level2',
  post_code: 'postal-code',
  country: 'country',
};

/**
 * SPEC §5 contact details: every field is required; the errors are listed under 'Please fix the
 * following errors:'. Prefilled from the last payout, else the profile (GET /offer/contact-details).
 * The payout method is chosen here: card (the default) or bank transfer, as the payout provider allows.
 */
export function ContactDetailsForm({
  initial,
  initialMethod = 'card',
  onNext,
  onCancel,
}: {
  initial: Contact | null;
  initialMethod?: PayoutMethod;
  onNext: (contact: Contact, method: PayoutMethod) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const ids = { country: useId(), errors: useId() };
  const saved = useContactDetails(initial === null);
  const countries = useCountries();
  const [values, setValues] = useState<Contact>(initial ?? EMPTY_CONTACT);
  const [picked, setMethod] = useState<PayoutMethod>(initialMethod);
  // Only the methods the configured payout provider takes (the manual provider pays by bank transfer only).
  const methods = useSettings().data?.payout_methods ?? ['card', 'sepa'];
  const method = methods.includes(picked) ? picked : (methods[0] ?? picked);
  const [missing, setMissing] = useState<ContactField[]>([]);
  const [filled, setFilled] = useState(initial !== null);
  const errorsShown = useRevealErrors<HTMLFormElement>();

  useEffect(() => {
    // Wait for the current answer: a cached one may predate the last payout's details.
    if (filled || !saved.isFetched || saved.isFetching) return;
    const d = saved.data;
    if (d) {
      setValues({
        first_name: d.first_name,
        last_name: d.last_name,
        email: d.email,
        phone: d.phone,
        address: d.address,
        city: d.city,
        post_code: d.post_code,
        country: d.country === null ? '' : String(d.country),
      });
    }
    setFilled(true);
  }, [filled, saved.isFetched, saved.isFetching, saved.data]);

  if (!filled) return <Spinner label={t('app.loading')} />;

  const set = (field: ContactField) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    const empty = CONTACT_FIELDS.filter((f) => !values[f].trim());
    setMissing(empty);
    if (empty.length) return errorsShown.reveal();
    onNext(Object.fromEntries(CONTACT_FIELDS.map((f) => [f, values[f].trim()])) as Contact, method);
  }

  return (
    <form className="payout-form" onSubmit={submit} noValidate ref={errorsShown.ref}>
      {missing.length > 0 && (
        <div className="form-errors" role="alert" id={ids.errors} tabIndex={-1}>
          <p>{t('payout.fix_errors')}</p>
          <ul>
            {missing.map((f) => (
              <li key={f}>{t(`payout.${f}_required`)}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="payout-grid">
        {CONTACT_FIELDS.filter((f) => f !== 'country').map((f) => (
          <Field
            key={f}
            label={t(`payout.${f}`)}
            type={INPUT_TYPE[f] ?? 'text'}
            autoComplete={AUTOCOMPLETE[f]}
            value={values[f]}
            onChange={set(f)}
            aria-invalid={missing.includes(f) || undefined}
          />
        ))}
        <div className="field">
          <label htmlFor={ids.country}>{t('payout.country')}</label>
          <select
            id={ids.country}
            value={values.country}
            onChange={set('country')}
            autoComplete="country"
            aria-invalid={missing.includes('country') || undefined}
          >
            <option value="">{t('payout.country_choose')}</option>
            {(countries.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="payout-methods">
        <legend>{t('payout.method')}</legend>
        {methods.map((m) => (
          <label key={m} className="check-row">
            <input type="radio" name="payout-method" value={m} checked={method === m} onChange={() => setMethod(m)} />
            <span>{t(`payout.method_${m}`)}</span>
          </label>
        ))}
      </fieldset>
      <FormActions cancelLabel={t('offers.cancel')} onCancel={onCancel} submitLabel={t('payout.continue')} />
    </form>
  );
}

/** Groups of four digits as the number is typed (SPEC §2), at most 19 digits. */
