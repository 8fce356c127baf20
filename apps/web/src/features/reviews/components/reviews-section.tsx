import { REVIEW_SORTS } from '@atelier/shared/constants';
import type { Review, ReviewSort } from '@atelier/shared/reviews';
import { lazy, Suspense, useId, useState } from 'react';
import { TextAreaField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { ReportLink } from '../../reports';
import { useDeleteReview, useReplyToReview, useReviews } from '../api/reviews';
import './reviews.css';

// The form (react-hook-form and the zod schema) loads only for a buyer who may review: the list and
// product pages' first load stays small (issue 20: initial JS at most 120 KB).
const ReviewForm = lazy(() => import('./review-form').then((m) => ({ default: m.ReviewForm })));

const SORT_KEY: Record<ReviewSort, string> = { newest: 'reviews.sort_newest', highest: 'reviews.sort_highest', lowest: 'reviews.sort_lowest' };

function Stars({ rating }: { rating: number }) {
  const { t } = useTranslation();
  return (
    <span className="review-stars" role="img" aria-label={t('reviews.stars_label', { rating })}>
      {'★'.repeat(rating)}
      <span className="review-stars-off">{'★'.repeat(5 - rating)}</span>
    </span>
  );
}

/** The product page's reviews: the stars per level, the list with sort and pages, the buyer's form and the author's replies. */
export function ReviewsSection({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<ReviewSort>('newest');
  const sortId = useId();
  const query = useReviews(productId, page, sort);
  const data = query.data;
  const others = data?.payload.filter((r) => r.id !== data.meta.mine?.id) ?? [];

  return (
    <section className="section reviews" id="reviews" aria-labelledby="reviews-title" data-testid="reviews">
      <div className="reviews-head">
        <h2 id="reviews-title">
          {t('reviews.title')}
          {data && data.meta.total > 0 && ' '}
          {data && data.meta.total > 0 && (
            <span className="muted">
              · {data.meta.average.toFixed(1)} ★ · {t('reviews.count', { count: data.meta.total })}
            </span>
          )}
        </h2>
        {data && data.meta.total > 1 && (
          <div className="field-inline">
            <label htmlFor={sortId}>{t('reviews.sort')}</label>
            <select
              id={sortId}
              value={sort}
              onChange={(e) => {
                setSort(e.target.value as ReviewSort);
                setPage(1);
              }}
            >
              {REVIEW_SORTS.map((s) => (
                <option key={s} value={s}>
                  {t(SORT_KEY[s])}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {query.isError && <p role="alert">{t('reviews.load_error')}</p>}
      {data && (
        <>
          {data.meta.total > 0 && (
            <ul className="review-bars" aria-hidden="true">
              {([5, 4, 3, 2, 1] as const).map((star) => (
                <li key={star}>
                  <span>{star} ★</span>
                  <span className="review-bar">
                    <span style={{ width: `${(100 * data.meta.counts[star]) / data.meta.total}%` }} />
                  </span>
                  <span className="muted">{data.meta.counts[star]}</span>
                </li>
              ))}
            </ul>
          )}
          {(data.meta.can_review || data.meta.mine) && <OwnReview productId={productId} mine={data.meta.mine} />}
          {/* Issue 31: the reader's own review shows once, above, with Edit and Delete (and never Report). */}
          {others.length === 0 ? (
            !data.meta.mine && <p className="muted">{t('reviews.none')}</p>
          ) : (
            <ul className="review-list">
              {others.map((r) => (
                <ReviewItem key={r.id} review={r} productId={productId} canReply={data.meta.is_author && r.reply === null} />
              ))}
            </ul>
          )}
          {data.meta.pages > 1 && (
            <nav className="pagination" aria-label={t('reviews.title')}>
              <button type="button" className="page-link" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('reviews.previous')}
              </button>
              <span className="muted">
                {page} / {data.meta.pages}
              </span>
              <button type="button" className="page-link" disabled={page >= data.meta.pages} onClick={() => setPage(page + 1)}>
                {t('reviews.next')}
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}

/** Issue 31 item 7: the writer bought the work and kept it, or had it refunded. */
function PurchaseMark({ review }: { review: Review }) {
  const { t } = useTranslation();
  if (review.verified_purchase) {
    return (
      <span className="review-mark verified" data-testid="verified-purchase">
        <span aria-hidden="true">✓ </span>
        {t('reviews.verified_purchase')}
      </span>
    );
  }
  if (review.refunded) {
    return (
      <span className="review-mark refunded" data-testid="refunded-purchase">
        {t('reviews.refunded_purchase')}
      </span>
    );
  }
  return null;
}

function ReviewItem({ review, productId, canReply }: { review: Review; productId: number; canReply: boolean }) {
  const { t } = useTranslation();
  return (
    <li className="review" data-testid="review">
      <div className="review-meta">
        <Stars rating={review.rating} />
        <strong>@{review.author.nickname}</strong>
        <time className="muted small" dateTime={review.created_at}>
          {review.created_at.slice(0, 10)}
        </time>
        {review.edited_at && <span className="muted small">({t('reviews.edited')})</span>}
        <PurchaseMark review={review} />
        {/* Notice and action (issue 33): anyone, guests included, reports with a reason and an explanation. */}
        <ReportLink subjectType="review" subjectId={review.id} title={t('reviews.report_title', { nickname: review.author.nickname })} />
      </div>
      {review.text && <p className="review-text">{review.text}</p>}
      {review.reply && (
        <div className="review-reply">
          <strong className="small">{t('reviews.reply_from_creator')}</strong>
          <p>{review.reply.text}</p>
        </div>
      )}
      {canReply && <ReplyForm reviewId={review.id} productId={productId} />}
    </li>
  );
}

function ReplyForm({ reviewId, productId }: { reviewId: number; productId: number }) {
  const { t } = useTranslation();
  const toast = useToast();
  const reply = useReplyToReview(productId);
  const [text, setText] = useState('');
  const id = useId();
  return (
    <form
      className="review-reply-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) reply.mutate({ id: reviewId, text }, { onError: (err) => toast.error(serverMessageOr(err, t('reviews.failed'))) });
      }}
    >
      <TextAreaField
        id={id}
        label={t('reviews.reply')}
        placeholder={t('reviews.reply_placeholder')}
        rows={2}
        maxLength={2000}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <button type="submit" className="button" disabled={reply.isPending || !text.trim()}>
        {t('reviews.send_reply')}
      </button>
    </form>
  );
}

/** The buyer's own review: the form before they wrote one, else their review with Edit and Delete. */
function OwnReview({ productId, mine }: { productId: number; mine: Review | null }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const remove = useDeleteReview(productId);
  const toast = useToast();
  if (mine && !editing) {
    return (
      <div className="review own-review" data-testid="own-review">
        <h3 className="small-heading">{t('reviews.your_review')}</h3>
        <Stars rating={mine.rating} />
        {mine.text && <p className="review-text">{mine.text}</p>}
        <div className="review-actions">
          <button type="button" className="button" onClick={() => setEditing(true)}>
            {t('reviews.edit')}
          </button>
          <button
            type="button"
            className="button"
            disabled={remove.isPending}
            onClick={() => remove.mutate(mine.id, { onError: (e) => toast.error(serverMessageOr(e, t('reviews.failed'))) })}
          >
            {t('reviews.delete')}
          </button>
        </div>
      </div>
    );
  }
  return (
    <Suspense fallback={null}>
      <ReviewForm productId={productId} mine={mine} onDone={() => setEditing(false)} />
    </Suspense>
  );
}
