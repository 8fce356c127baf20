import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { offerErrorMessage, type PayoutBody } from '../api/offers';
// The forms bring their own styles: the Earnings tab shows them without My projects having loaded.
import './offers.css';
import type { Contact } from './contact-details-form';

// What the card and bank payout forms share: the props, the body's contact part, the server's refusal, the amount line and the buttons.

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

export function contactBody(contact: Contact, offerId: number) {
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
export function useServerErrors(fields: readonly string[]) {
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

export function PayoutAmount({ amount }: { amount: string | null }) {
  const { t } = useTranslation();
  if (amount === null) return null;
  return <p className="payout-amount">{t('payout.amount', { amount })}</p>;
}

export function PayoutActions({ busy, onBack, submitLabel }: { busy: boolean; onBack: () => void; submitLabel?: string }) {
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
