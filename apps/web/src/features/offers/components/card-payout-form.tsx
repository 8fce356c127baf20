import { isLuhnValid } from '@atelier/shared';
import { type ChangeEvent, type FormEvent, useId, useState } from 'react';
import { Field, FormError, InlineError } from '../../../components/ui/field';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useStepUp } from '../../security';
import type { PayoutBody } from '../api/offers';
import { useRevealErrors } from './reveal-errors';
// The forms bring their own styles: the Earnings tab shows them without My projects having loaded.
import './offers.css';
import { contactBody, PayoutActions, PayoutAmount, type PayoutFormProps, useServerErrors } from './payout-form-parts';

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
  /** A card field on the number keypad: what was typed as `clean` leaves it, its error, and held while sending. */
  const cardInput = (name: 'card_number' | 'expire_month' | 'expire_year', clean: (text: string) => string) => ({
    inputMode: 'numeric' as const,
    value: v[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setV({ ...v, [name]: clean(e.target.value) }),
    error: fe[name],
    disabled: busy,
  });
  const digits = (text: string) => text.replace(/\D/g, '');
  return (
    <>
      <form className="payout-form" onSubmit={submit} noValidate aria-busy={busy} ref={errorsShown.ref}>
        <PayoutAmount amount={amount} />
        <Field
          label={t('payout.card_number')}
          autoComplete="cc-number"
          placeholder="0000 0000 0000 0000"
          maxLength={23}
          {...cardInput('card_number', formatCardNumber)}
        />
        <div className="payout-grid pair">
          <Field label={t('payout.expire_month')} autoComplete="cc-exp-month" placeholder="MM" maxLength={2} {...cardInput('expire_month', digits)} />
          <Field label={t('payout.expire_year')} autoComplete="cc-exp-year" placeholder="YYYY" maxLength={4} {...cardInput('expire_year', digits)} />
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
