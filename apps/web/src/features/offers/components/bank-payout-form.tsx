import { isIbanValid } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { Field, FormError } from '../../../components/ui/field';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useStepUp } from '../../security';
// The forms bring their own styles: the Earnings tab shows them without My projects having loaded.
import './offers.css';
import { contactBody, PayoutActions, PayoutAmount, type PayoutFormProps, useServerErrors } from './payout-form-parts';

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
