import { useTranslation } from '../../../lib/i18n-runtime';

/** Five stars filled to the average, with the count beside them; nothing before a first review. */
export function RatingStars({ average, count }: { average: number; count: number }) {
  const { t } = useTranslation();
  // An answer cached from before ratings existed carries neither field: the same as no reviews.
  if (!(count > 0)) return null;
  const label = t('reviews.rated_label', { average: average.toFixed(1), count });
  return (
    <span className="rating" role="img" aria-label={label} title={label} data-testid="rating">
      <span className="rating-stars" aria-hidden="true" style={{ '--rating': String(average) } as React.CSSProperties}>
        ★★★★★
      </span>
      <span className="rating-value" aria-hidden="true">
        {average.toFixed(1)} <span className="muted">({count})</span>
      </span>
    </span>
  );
}
