import { type AdminOffer, OFFER_STATUSES, type OfferStatus } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { AdminSection } from '../../../components/ui/admin-section';
import { StatusFilter } from '../../../components/ui/filter-select';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMoney } from '../../currency';
import { useAdminOffers, useAdminUser, useApproveListing, useCounterOffer, useDeclineOffer, useFormatMinor } from '../api/admin-api';
import { ActionError } from './action-error';
import { AdminList } from './admin-table';
import { PublishProduct } from './publish-product';

/** Statuses after the creator accepted: the work is a product staff price, tag and publish. */
const ACCEPTED: OfferStatus[] = ['approved', 'payout_processing', 'paid'];

/** The review queue: pending offers oldest first, each with its file, creator, history and the review actions. */
export function ReviewQueue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<OfferStatus>('pending');
  const offers = useAdminOffers(status);
  return (
    <AdminSection
      id="review"
      title={t('admin.review_title')}
      tools={<StatusFilter value={status} onChange={setStatus} options={OFFER_STATUSES} optionLabel={(s) => t(`admin.offer_status_${s}`)} />}
    >
      {status === 'pending' && <p className="muted small">{t('admin.review_hint')}</p>}
      <AdminList query={offers} empty={t('admin.review_empty')} rowKey={(offer) => offer.id}>
        {(offer) => <OfferReview offer={offer} />}
      </AdminList>
    </AdminSection>
  );
}

function OfferReview({ offer }: { offer: AdminOffer }) {
  const { t } = useTranslation();
  const money = useMoney();
  const price = (amount: number) => money.format(amount, offer.currency);
  return (
    <article className="admin-card offer-review" aria-label={offer.title}>
      <div className="offer-review-media">
        {offer.imageUrl ? (
          <img src={offer.imageUrl} alt="" width="240" height="180" loading="lazy" />
        ) : (
          <div className="admin-file-icon">{offer.file_type}</div>
        )}
      </div>
      <div className="offer-review-body">
        <header className="admin-card-head">
          <h3>{offer.title}</h3>
          <span className="admin-status" data-status={offer.status}>
            {t(`admin.offer_status_${offer.status}`)}
          </span>
          <span className="admin-status" data-deal={offer.deal_type}>
            {t(`admin.deal_${offer.deal_type}`)}
          </span>
        </header>
        <dl className="admin-facts">
          <div>
            <dt>{t('admin.creator')}</dt>
            <dd>
              @{offer.user.nickname} <span className="muted">({offer.user.email})</span>
            </dd>
          </div>
          <div>
            <dt>{t('admin.asking_price')}</dt>
            <dd>{price(offer.user_price)}</dd>
          </div>
          {offer.service_price !== null && (
            <div>
              <dt>{t('admin.our_price')}</dt>
              <dd>{price(offer.service_price)}</dd>
            </div>
          )}
          <div>
            <dt>{t('admin.submitted')}</dt>
            <dd>{formatDateTime(offer.created_at, true)}</dd>
          </div>
          <div>
            <dt>{t('admin.file')}</dt>
            <dd>
              <a href={offer.file_url} download={offer.file_name}>
                {t('admin.download_file', { name: offer.file_name })}
              </a>
            </dd>
          </div>
        </dl>
        {offer.description && <p className="offer-review-text">{offer.description}</p>}
        {offer.tags.length > 0 && (
          <ul className="admin-tags" aria-label={t('admin.styles')}>
            {offer.tags.map((tag) => (
              <li key={tag.name}>#{tag.name}</li>
            ))}
          </ul>
        )}
        {offer.status_note && <p className="muted small">{t('admin.note', { note: offer.status_note })}</p>}
        <details className="admin-details">
          <summary>{t('admin.history', { n: offer.events.length })}</summary>
          <ol className="admin-timeline">
            {offer.events.map((e) => (
              <li key={`${e.at}-${e.to}`}>
                <time>{formatDateTime(e.at, true)}</time> {e.from ? `${t(`admin.offer_status_${e.from}`)} → ` : ''}
                {t(`admin.offer_status_${e.to}`)} <span className="muted">({e.by})</span>
                {e.note && <q>{e.note}</q>}
              </li>
            ))}
          </ol>
        </details>
        <CreatorOffers userId={offer.user.id} currentId={offer.id} />
        {offer.status === 'pending' && <ReviewActions offer={offer} />}
        {offer.product_id !== null && ACCEPTED.includes(offer.status) && <PublishProduct productId={offer.product_id} />}
      </div>
    </article>
  );
}

/** The creator's other offers, loaded when staff open them. */
function CreatorOffers({ userId, currentId }: { userId: number; currentId: number }) {
  const formatMinor = useFormatMinor();
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const detail = useAdminUser(open ? userId : null);
  const others = detail.data?.offers.filter((o) => o.id !== currentId) ?? [];
  return (
    <details className="admin-details" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>{t('admin.creator_offers')}</summary>
      {detail.isFetching && !detail.data ? (
        <Spinner />
      ) : others.length === 0 ? (
        <p className="muted small">{t('admin.creator_no_other_offers')}</p>
      ) : (
        <ul className="admin-rows">
          {others.map((o) => (
            <li key={o.id}>
              {formatDateTime(o.created_at)} · {o.title} · {formatMinor(o.user_price_minor)} · {t(`admin.offer_status_${o.status}`)}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

function ReviewActions({ offer }: { offer: AdminOffer }) {
  const money = useMoney();
  const { t } = useTranslation();
  const toast = useToast();
  const counter = useCounterOffer();
  const decline = useDeclineOffer();
  const approve = useApproveListing();
  const [servicePrice, setServicePrice] = useState(offer.user_price.toFixed(2));
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const [kind, setKind] = useState<'declined_by_service' | 'declined'>('declined_by_service');
  const busy = counter.isPending || decline.isPending || approve.isPending;

  const sendCounter = (price: number) =>
    counter.mutate({ id: offer.id, service_price: price, note }, { onSuccess: () => toast.success(t('admin.counter_sent', { title: offer.title })) });

  const onCounter = (e: FormEvent) => {
    e.preventDefault();
    sendCounter(Number(servicePrice.replace(',', '.')));
  };
  const onDecline = (e: FormEvent) => {
    e.preventDefault();
    decline.mutate({ id: offer.id, reason, status: kind }, { onSuccess: () => toast.success(t('admin.declined_done', { title: offer.title })) });
  };

  return (
    <div className="review-actions">
      {offer.deal_type === 'listing' && (
        <div className="admin-form" role="group" aria-label={t('admin.approve_listing_title')}>
          <h4>{t('admin.approve_listing_title')}</h4>
          <div className="admin-form-actions">
            <button
              type="button"
              className="button primary"
              disabled={busy}
              onClick={() => approve.mutate(offer.id, { onSuccess: () => toast.success(t('admin.listing_approved', { title: offer.title })) })}
            >
              {t('admin.approve_listing', { price: money.format(offer.user_price, offer.currency) })}
            </button>
          </div>
          <ActionError error={approve.error} />
        </div>
      )}
      <form className="admin-form" onSubmit={onCounter} aria-label={t('admin.counter_title')}>
        <h4>{t('admin.counter_title')}</h4>
        <div className="admin-form-row">
          <label>
            {t('admin.service_price')}
            <input inputMode="decimal" value={servicePrice} onChange={(e) => setServicePrice(e.target.value)} required />
          </label>
          <label className="grow">
            {t('admin.note_to_creator')}
            <input value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} />
          </label>
        </div>
        <div className="admin-form-actions">
          <button type="submit" className="button primary" disabled={busy}>
            {t('admin.send_counter')}
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => sendCounter(offer.user_price)}>
            {t('admin.offer_at_user_price', { price: money.format(offer.user_price, offer.currency) })}
          </button>
        </div>
        <ActionError error={counter.error} />
      </form>
      <form className="admin-form" onSubmit={onDecline} aria-label={t('admin.decline_title')}>
        <h4>{t('admin.decline_title')}</h4>
        <div className="admin-form-row">
          <label className="grow">
            {t('admin.decline_reason')}
            <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} />
          </label>
          <label>
            {t('admin.decline_kind')}
            <select value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
              <option value="declined_by_service">{t('admin.decline_by_service')}</option>
              <option value="declined">{t('admin.decline_spam')}</option>
            </select>
          </label>
        </div>
        <div className="admin-form-actions">
          <button type="submit" className="button danger" disabled={busy}>
            {t('admin.decline')}
          </button>
        </div>
        <ActionError error={decline.error} />
      </form>
    </div>
  );
}
