import type { Offer, OfferStatus } from '@atelier/shared';
import { useTranslation } from '../../../lib/i18n-runtime';

/**
 * SPEC §4 status colours: approved green, declined red (all three kinds), pending yellow, offer
 * blue. Our `paid` is green as well; `payout_processing` (no SPEC colour) is teal, money on its way.
 */
export const STATUS_TONE: Record<OfferStatus, 'green' | 'red' | 'yellow' | 'blue' | 'teal'> = {
  pending: 'yellow',
  offer: 'blue',
  approved: 'green',
  declined: 'red',
  declined_by_service: 'red',
  declined_by_user: 'red',
  payout_processing: 'teal',
  paid: 'green',
  // Issue 19: a listing the creator took out of the shop; neither declined nor live.
  unlisted: 'yellow',
};

export function OfferStatusLabel({ status }: { status: OfferStatus }) {
  const { t } = useTranslation();
  return (
    <span className="offer-status" data-tone={STATUS_TONE[status]} data-status={status}>
      {t(`offers.status_${status}`)}
    </span>
  );
}

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const };

/** The type icon shown when an offer has no preview image (SPEC §2: icon for image or prompt). */
export function OfferTypeIcon({ type }: { type: Offer['doc_type'] }) {
  const { t } = useTranslation();
  return (
    <span className="offer-thumb offer-icon" role="img" aria-label={t(`offers.type_${type}`)} data-type={type}>
      <svg width="28" height="28" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        {type === 'image' && (
          <>
            <rect x="3" y="4" width="18" height="16" rx="2" {...stroke} />
            <circle cx="9" cy="10" r="1.8" {...stroke} />
            <path d="M21 16l-5-5-9 9" {...stroke} />
          </>
        )}
        {type === 'prompt' && (
          <>
            <path d="M4 17l6-5-6-5" {...stroke} />
            <path d="M12 19h8" {...stroke} />
          </>
        )}
        {type === 'other' && (
          <>
            <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" {...stroke} />
            <path d="M14 3v5h5M9 13h6M9 17h6" {...stroke} />
          </>
        )}
      </svg>
    </span>
  );
}
