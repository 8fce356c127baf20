import type { Offer } from '@atelier/shared';
import { useState } from 'react';
import { FormError } from '../../../components/ui/field';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price } from '../../catalog';
import { useMoney } from '../../currency';
import { UploadVersionForm } from '../../versions';
import { offerErrorMessage, type PayoutBody, useApproveOffer, useDeclineOffer, useRequestPayout } from '../api/offers';
import type { Contact, PayoutMethod } from './contact-details-form';
import { ListingControls } from './listing-controls';
import { Modal, ModalCloseRow } from './modal';
import { OfferStatusLabel, OfferTypeIcon } from './offer-status';
import { PayoutContactDialog, PayoutPaymentDialog } from './payout-dialogs';

type Step =
  | { kind: 'details' }
  | { kind: 'contact'; contact: Contact | null; method: PayoutMethod }
  | { kind: 'payment'; contact: Contact; method: PayoutMethod }
  | { kind: 'result'; outcome: 'completed' | 'declined'; method?: PayoutMethod };

/** The offer's details, and for a counter-offer what it leads to (SPEC §2 offer payout dialogs). */
function OfferDetails({ offer, onPay, onDeclined }: { offer: Offer; onPay: () => void; onDeclined: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const approve = useApproveOffer();
  const decline = useDeclineOffer();
  const [error, setError] = useState<string | null>(null);
  const busy = approve.isPending || decline.isPending;

  async function accept() {
    setError(null);
    try {
      await approve.mutateAsync(offer.id);
      // A listing is published at the accepted price: no payout; the details now show its controls.
      if (!listing) onPay();
    } catch (err) {
      setError(offerErrorMessage(err, t('offers.approve_error')));
    }
  }

  async function refuse() {
    setError(null);
    try {
      await decline.mutateAsync(offer.id);
      onDeclined();
    } catch (err) {
      setError(offerErrorMessage(err, t('offers.decline_error')));
    }
  }

  const canAnswer = offer.status === 'offer' && offer.service_price !== null;
  const listing = offer.deal_type === 'listing';
  const payoutFailed = !listing && offer.status === 'approved' && offer.status_note;
  return (
    <div className="offer-details">
      <div className="offer-details-media">
        {offer.imageUrl ? <img src={offer.imageUrl} alt="" width={480} height={360} /> : <OfferTypeIcon type={offer.doc_type} />}
      </div>
      <div className="offer-details-body">
        <h3>{offer.title}</h3>
        <dl className="offer-facts">
          <div>
            <dt>{t('offers.status')}</dt>
            <dd>
              <OfferStatusLabel status={offer.status} />
            </dd>
          </div>
          <div>
            <dt>{t('offers.your_price')}</dt>
            <dd>
              <Price amount={offer.user_price} currency={offer.currency} />
            </dd>
          </div>
          {offer.service_price !== null && (
            <div>
              <dt>{t('offers.service_price')}</dt>
              <dd data-testid="service-price">
                <Price amount={offer.service_price} currency={offer.currency} />
              </dd>
            </div>
          )}
          <div>
            <dt>{t('offers.created_at')}</dt>
            <dd>{formatDateTime(offer.created_at, true)}</dd>
          </div>
        </dl>
        {offer.description && <p className="offer-description">{offer.description}</p>}
        {offer.tags.length > 0 && (
          <ul className="offer-tags" aria-label={t('offers.tags')}>
            {offer.tags.map((tag) => (
              <li key={tag.name}>#{tag.name}</li>
            ))}
          </ul>
        )}
        {offer.status_note && !payoutFailed && (
          <p className="offer-note">
            <strong>{t('offers.note')}:</strong> {offer.status_note}
          </p>
        )}
        {canAnswer && (
          <p className="offer-callout">
            {t(listing ? 'offers.listing_offer_text' : 'offers.offer_text', { amount: money.format(offer.service_price!, offer.currency) })}
          </p>
        )}
        {listing && (offer.status === 'approved' || offer.status === 'unlisted') && <ListingControls offer={offer} />}
        {listing && (offer.status === 'approved' || offer.status === 'unlisted') && offer.product_id && <UploadVersionForm productId={offer.product_id} />}
        {offer.status === 'pending' && <p className="offer-callout neutral">{t('offers.sent_text')}</p>}
        {offer.status === 'approved' && !listing && (
          <p className={payoutFailed ? 'offer-callout warn' : 'offer-callout'} role={payoutFailed ? 'alert' : undefined}>
            {payoutFailed ? t('offers.payout_failed', { reason: offer.status_note }) : t('offers.approved_text')}
          </p>
        )}
        {offer.status === 'payout_processing' && <p className="offer-callout neutral">{t('offers.processing_text')}</p>}
        {offer.status === 'paid' && <p className="offer-callout ok">{t('offers.paid_text')}</p>}
        <FormError message={error} />
        {canAnswer && (
          <div className="modal-actions">
            <button type="button" className="button" onClick={refuse} disabled={busy}>
              {decline.isPending ? t('auth.processing') : t('offers.decline')}
            </button>
            <button type="button" className="button primary" onClick={accept} disabled={busy}>
              {approve.isPending ? t('auth.processing') : t('offers.accept')}
            </button>
          </div>
        )}
        {offer.status === 'approved' && !listing && (
          <div className="modal-actions">
            <button type="button" className="button primary" onClick={onPay}>
              {payoutFailed ? t('offers.payout_retry') : t('offers.get_paid')}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}

/**
 * One offer's dialogs in sequence: details; for a counter-offer Accept leads to contact details,
 * then payment details (card, or bank transfer), then the result; Decline straight to the result.
 */
export function OfferDialogs({ offer, onClose }: { offer: Offer; onClose: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'details' });
  const payout = useRequestPayout();
  const money = useMoney();

  switch (step.kind) {
    case 'details':
      return (
        <Modal title={t('offers.details_title')} onClose={onClose} wide>
          <OfferDetails
            offer={offer}
            onPay={() => setStep({ kind: 'contact', contact: null, method: 'card' })}
            onDeclined={() => setStep({ kind: 'result', outcome: 'declined' })}
          />
        </Modal>
      );
    case 'contact':
      return (
        <PayoutContactDialog
          contact={step.contact}
          method={step.method}
          onNext={(contact, method) => setStep({ kind: 'payment', contact, method })}
          onClose={onClose}
        />
      );
    case 'payment': {
      const back = () => setStep({ kind: 'contact', contact: step.contact, method: step.method });
      const done = () => setStep({ kind: 'result', outcome: 'completed', method: step.method });
      const amount = offer.service_price === null ? null : money.format(offer.service_price, offer.currency);
      const send = (body: PayoutBody) => payout.mutateAsync({ ...body, id: offer.id });
      return <PayoutPaymentDialog method={step.method} amount={amount} contact={step.contact} send={send} onDone={done} onBack={back} onClose={onClose} />;
    }
    case 'result':
      return (
        <Modal title={step.outcome === 'completed' ? t('payout.completed') : t('payout.declined')} onClose={onClose}>
          <div className="deal-result" data-outcome={step.outcome}>
            <p>{step.outcome === 'declined' ? t('payout.declined_text') : step.method === 'sepa' ? t('payout.completed_sepa') : t('payout.completed_card')}</p>
            <ModalCloseRow label={t('offers.close')} onClose={onClose} />
          </div>
        </Modal>
      );
  }
}
