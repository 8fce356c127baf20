import { useTranslation } from '../../../lib/i18n-runtime';
import { BankPayoutForm } from './bank-payout-form';
import { CardPayoutForm } from './card-payout-form';
import { type Contact, ContactDetailsForm, type PayoutMethod } from './contact-details-form';
import { Modal } from './modal';
import type { PayoutFormProps } from './payout-form-parts';

/** A payout's contact step, in its dialog: who is paid, and whether by card or bank transfer. Cancel closes. */
export function PayoutContactDialog({
  contact,
  method,
  onNext,
  onClose,
}: {
  contact: Contact | null;
  method: PayoutMethod;
  onNext: (contact: Contact, method: PayoutMethod) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal title={t('payout.contact_title')} onClose={onClose} wide>
      <ContactDetailsForm initial={contact} initialMethod={method} onNext={onNext} onCancel={onClose} />
    </Modal>
  );
}

/** A payout's payment step, in its dialog: the card or the bank account, as the contact step chose. */
export function PayoutPaymentDialog({ method, onClose, ...form }: PayoutFormProps & { method: PayoutMethod; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal title={`${t('payout.payment_title')} · ${t(`payout.method_${method}`)}`} onClose={onClose}>
      {method === 'card' ? <CardPayoutForm {...form} /> : <BankPayoutForm {...form} />}
    </Modal>
  );
}
