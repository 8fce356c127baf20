import type { Offer } from '@atelier/shared';
import { type ReactNode, useState } from 'react';
import { EmptyState, LoadFailed, SkeletonRows } from '../../../components/ui/load-states';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price } from '../../catalog';
import { useOffers } from '../api/offers';
import { CreateOfferDialog } from './create-offer-dialog';
import { OfferDialogs } from './offer-dialogs';
import { OfferStatusLabel, OfferTypeIcon } from './offer-status';
import './offers.css';

function OfferRow({ offer, onView }: { offer: Offer; onView: () => void }) {
  const { t } = useTranslation();
  return (
    <li className="offer-row" data-testid="offer">
      {offer.imageUrl ? (
        <img className="offer-thumb" src={offer.imageUrl} alt="" width={72} height={72} loading="lazy" />
      ) : (
        <OfferTypeIcon type={offer.doc_type} />
      )}
      <div className="offer-main">
        <h3 className="offer-title">{offer.title}</h3>
        <div className="offer-meta">
          <OfferStatusLabel status={offer.status} />
          <time dateTime={new Date(offer.created_at * 1000).toISOString()}>{formatDateTime(offer.created_at, true)}</time>
        </div>
        {offer.tags.length > 0 && (
          <ul className="offer-tags" aria-label={t('offers.tags')}>
            {offer.tags.map((tag) => (
              <li key={tag.name}>#{tag.name}</li>
            ))}
          </ul>
        )}
      </div>
      <div className="offer-side">
        <Price amount={offer.user_price} currency={offer.currency} />
        <button type="button" className="button" onClick={onView} aria-label={t('offers.view_offer', { title: offer.title })}>
          {t('offers.view')}
        </button>
      </div>
    </li>
  );
}

/**
 * SPEC §2 My projects: a button to offer a new work, and the creator's offers with their status;
 * each opens its details, where a counter-offer is accepted or declined and an accepted one paid out.
 */
export function MyProjects() {
  const { t } = useTranslation();
  const offers = useOffers();
  const [creating, setCreating] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const viewed = viewing === null ? undefined : offers.data?.find((o) => o.id === viewing);

  let body: ReactNode;
  if (offers.isPending) body = <SkeletonRows rows={3} className="offer-skeleton" rowClassName="skeleton" />;
  else if (offers.isError) body = <LoadFailed message={offers.error.message || t('offers.fetch_error')} onRetry={() => offers.refetch()} />;
  else if (!offers.data.length) body = <EmptyState title={t('offers.empty')} />;
  else
    body = (
      <ul className="offer-list" aria-label={t('dashboard.my_projects')}>
        {offers.data.map((offer) => (
          <OfferRow key={offer.id} offer={offer} onView={() => setViewing(offer.id)} />
        ))}
      </ul>
    );

  return (
    <section className="my-projects" aria-labelledby="my-projects-title">
      <div className="my-projects-head">
        <h2 id="my-projects-title" className="visually-hidden">
          {t('dashboard.my_projects')}
        </h2>
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          {t('offers.create')}
        </button>
      </div>
      {body}
      {creating && <CreateOfferDialog onClose={() => setCreating(false)} />}
      {viewed && <OfferDialogs offer={viewed} onClose={() => setViewing(null)} />}
    </section>
  );
}
