import { isIbanValid, isLuhnValid } from '@atelier/shared';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Field, FormError, InlineError } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useStepUp } from '../../security';
import { useSettings } from '../../site';
import { offerErrorMessage, type PayoutBody, useContactDetails, useCountries } from '../api/offers';
import { useRevealErrors } from './reveal-errors';
// The forms bring their own styles: the Earnings tab shows them without My projects having loaded.
import './offers.css';

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
      <div className="modal-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t('offers.cancel')}
        </button>
        <button type="submit" className="button primary">
          {t('payout.continue')}
        </button>
      </div>
    </form>
  );
}

/** Groups of four digits as the number is typed (SPEC §2), at most 19 digits. */
export function formatCardNumber(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

type CardErrorField = 'terms' | 'card_number' | 'expire_month' | 'expire_year';

/** SPEC §5 card checks in their order (plus Luhn); the first that fails, with its field. */
export function checkCard(
  v: { card_number: string; expire_month: string; expire_year: string; terms: boolean },
  now = new Date(),
): { field: CardErrorField; key: string } | null {
  const digits = v.card_number.replace(/\s/g, '');
  const month = Number(v.expire_month);
  const year = Number(v.expire_year);
  const thisYear = now.getFullYear();
  if (!v.terms) return { field: 'terms', key: 'payout.terms_required' };
  if (!/^\d{13,19}$/.test(digits) || !isLuhnValid(digits)) return { field: 'card_number', key: 'payout.card_invalid' };
  if (!/^\d{1,2}$/.test(v.expire_month.trim()) || month < 1 || month > 12) return { field: 'expire_month', key: 'payout.month_invalid' };
  if (!/^\d{4}$/.test(v.expire_year.trim()) || year < thisYear || year > thisYear + 20) return { field: 'expire_year', key: 'payout.year_invalid' };
  if (year === thisYear && month < now.getMonth() + 1) return { field: 'expire_month', key: 'payout.card_expired' };
  return null;
}

/** What a payout form hands to its owner: the SPEC §3 body (an offer's payout, or a withdrawal's details). */
export type PayoutFormProps = {
  /** The amount paid out, already formatted ("€ 120.00"), or null to leave the line out. */
  amount: string | null;
  contact: Contact;
  /** Sends the body (an offer id of 0 when the owner is not an offer); a step-up answer opens the dialog. */
  send: (body: PayoutBody) => Promise<unknown>;
  onDone: () => void;
  onBack: () => void;
  /** The submit button's words (the offer payout's 'Submit' by default). */
  submitLabel?: string;
};

function contactBody(contact: Contact, offerId: number) {
  return {
    ...contact,
    country: Number(contact.country),
    currency: 'EUR',
    // SPEC §3: the contact details also travel under these duplicate names.
    name: contact.first_name,
    surname: contact.last_name,
    postCode: contact.post_code,
    id: offerId,
  };
}

/** The server's refusal: per-field messages under the fields shown here, anything else as the form's message. */
function useServerErrors(fields: readonly string[]) {
  const { t } = useTranslation();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  return {
    fieldErrors,
    formError,
    clear() {
      setFieldErrors({});
      setFormError(null);
    },
    setField(field: string, message: string) {
      setFieldErrors({ [field]: message });
    },
    take(err: unknown) {
      const placed: Record<string, string> = {};
      if (err instanceof ApiError) for (const f of fields) if (err.field(f)) placed[f] = err.field(f)!;
      setFieldErrors(placed);
      const others = err instanceof ApiError ? Object.keys(err.errors).filter((f) => !fields.includes(f)) : [];
      if (!Object.keys(placed).length || others.length) {
        const rest = err instanceof ApiError && others.length ? new ApiError(err.message, err.status, { [others[0]!]: err.errors[others[0]!]! }) : err;
        setFormError(offerErrorMessage(rest, t('offers.withdrawal_error')));
      }
    },
  };
}

const CARD_FIELDS = ['card_number', 'expire_month', 'expire_year', 'terms', 'card_holder_name'] as const;

/**
 * SPEC §2/§5 card payout: the number in groups of four, expiry month and year, the terms box, and
 * the cardholder's name read-only from the contact names. The card number goes to the server once,
 * which hands it to the payout provider and keeps only the brand and last four digits.
 */
export function CardPayoutForm({ amount, contact, send, onDone, onBack, submitLabel }: PayoutFormProps) {
  const { t } = useTranslation();
  const ids = { terms: useId() };
  const [busy, setBusy] = useState(false);
  // New payout details may first ask for a fresh second factor (issue 21).
  const stepUp = useStepUp();
  const errors = useServerErrors(CARD_FIELDS);
  const [v, setV] = useState({ card_number: '', expire_month: '', expire_year: '', terms: false });
  const holder = `${contact.first_name} ${contact.last_name}`.trim();
  const errorsShown = useRevealErrors<HTMLFormElement>();

  async function submit(e: FormEvent) {
    e.preventDefault();
    errors.clear();
    const failed = checkCard(v);
    if (failed) {
      errors.setField(failed.field, t(failed.key));
      return errorsShown.reveal();
    }
    const body: PayoutBody = {
      ...contactBody(contact, 0),
      paymentType: 'card',
      card_number: v.card_number.replace(/\s/g, ''),
      expire_month: Number(v.expire_month),
      expire_year: Number(v.expire_year),
      terms: true,
      card_holder_name: holder,
    };
    setBusy(true);
    try {
      await stepUp.run(() => send(body));
      onDone();
    } catch (err) {
      errors.take(err);
      errorsShown.reveal();
    } finally {
      setBusy(false);
    }
  }

  const fe = errors.fieldErrors;
  return (
    <>
      <form className="payout-form" onSubmit={submit} noValidate aria-busy={busy} ref={errorsShown.ref}>
        <PayoutAmount amount={amount} />
        <Field
          label={t('payout.card_number')}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="0000 0000 0000 0000"
          maxLength={23}
          value={v.card_number}
          onChange={(e) => setV({ ...v, card_number: formatCardNumber(e.target.value) })}
          error={fe.card_number}
          disabled={busy}
        />
        <div className="payout-grid pair">
          <Field
            label={t('payout.expire_month')}
            inputMode="numeric"
            autoComplete="cc-exp-month"
            placeholder="MM"
            maxLength={2}
            value={v.expire_month}
            onChange={(e) => setV({ ...v, expire_month: e.target.value.replace(/\D/g, '') })}
            error={fe.expire_month}
            disabled={busy}
          />
          <Field
            label={t('payout.expire_year')}
            inputMode="numeric"
            autoComplete="cc-exp-year"
            placeholder="YYYY"
            maxLength={4}
            value={v.expire_year}
            onChange={(e) => setV({ ...v, expire_year: e.target.value.replace(/\D/g, '') })}
            error={fe.expire_year}
            disabled={busy}
          />
        </div>
        <Field label={t('payout.card_holder')} value={holder} readOnly autoComplete="cc-name" error={fe.card_holder_name} />
        <div className="field">
          <label className="check-row" htmlFor={ids.terms}>
            <input
              id={ids.terms}
              type="checkbox"
              checked={v.terms}
              onChange={(e) => setV({ ...v, terms: e.target.checked })}
              aria-invalid={fe.terms ? true : undefined}
              disabled={busy}
            />
            <span>{t('payout.terms')}</span>
          </label>
          <InlineError message={fe.terms} />
        </div>
        <FormError message={errors.formError} />
        <PayoutActions busy={busy} onBack={onBack} submitLabel={submitLabel} />
      </form>
      {stepUp.dialog}
    </>
  );
}

const SEPA_FIELDS = ['account_number', 'recipient_full_name'] as const;

/** SPEC §2/§5 bank transfer: the IBAN (required, and checked with mod-97) and the recipient's name, read-only. */
export function BankPayoutForm({ amount, contact, send, onDone, onBack, submitLabel }: PayoutFormProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  // New payout details may first ask for a fresh second factor (issue 21).
  const stepUp = useStepUp();
  const errors = useServerErrors(SEPA_FIELDS);
  const [iban, setIban] = useState('');
  const recipient = `${contact.first_name} ${contact.last_name}`.trim();

  async function submit(e: FormEvent) {
    e.preventDefault();
    errors.clear();
    const compact = iban.replace(/\s+/g, '').toUpperCase();
    if (!compact) return errors.setField('account_number', t('payout.iban_required'));
    if (!isIbanValid(compact)) return errors.setField('account_number', t('payout.iban_invalid'));
    setBusy(true);
    try {
      await stepUp.run(() => send({ ...contactBody(contact, 0), paymentType: 'sepa', account_number: compact, recipient_full_name: recipient }));
      onDone();
    } catch (err) {
      errors.take(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <form className="payout-form" onSubmit={submit} noValidate aria-busy={busy}>
        <PayoutAmount amount={amount} />
        <Field
          label={t('payout.iban')}
          autoComplete="off"
          placeholder="DE89 3704 0044 0532 0130 00"
          maxLength={42}
          value={iban}
          onChange={(e) => setIban(e.target.value.toUpperCase())}
          error={errors.fieldErrors.account_number}
          disabled={busy}
        />
        <Field label={t('payout.recipient')} value={recipient} readOnly error={errors.fieldErrors.recipient_full_name} />
        <FormError message={errors.formError} />
        <PayoutActions busy={busy} onBack={onBack} submitLabel={submitLabel} />
      </form>
      {stepUp.dialog}
    </>
  );
}

function PayoutAmount({ amount }: { amount: string | null }) {
  const { t } = useTranslation();
  if (amount === null) return null;
  return <p className="payout-amount">{t('payout.amount', { amount })}</p>;
}

function PayoutActions({ busy, onBack, submitLabel }: { busy: boolean; onBack: () => void; submitLabel?: string }) {
  const { t } = useTranslation();
  return (
    <div className="modal-actions">
      <button type="button" className="button" onClick={onBack} disabled={busy}>
        {t('payout.back')}
      </button>
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? t('auth.processing') : (submitLabel ?? t('payout.submit'))}
      </button>
    </div>
  );
}
