import { BUNDLE_STATUSES, type Bundle, type BundleStatus } from '@atelier/shared';
import { useState } from 'react';
import { TextAreaField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useReviewBundle, useStaffBundles } from '../api/bundles';
import { BundleList, BundleSummary } from './bundles-tab';
import './bundles.css';

/** The back office's bundle queue (issue 34): approve a creator's proposal (published as their pack) or reject it with a reason. */
export function BundleReview() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<BundleStatus>('pending');
  const list = useStaffBundles(status);
  return (
    <section className="panel" aria-labelledby="bundle-review-title" data-testid="bundle-review">
      <h2 id="bundle-review-title">{t('bundles.review_title')}</h2>
      <label>
        {t('bundles.show')}{' '}
        <select value={status} onChange={(e) => setStatus(e.target.value as BundleStatus)}>
          {BUNDLE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`bundles.status_${s}`)}
            </option>
          ))}
        </select>
      </label>
      <BundleList query={list} empty={t('bundles.review_empty')}>
        {(b) => <ReviewRow key={b.id} bundle={b} />}
      </BundleList>
    </section>
  );
}

function ReviewRow({ bundle: b }: { bundle: Bundle }) {
  const { t } = useTranslation();
  const toast = useToast();
  const review = useReviewBundle();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const fail = (err: unknown) => toast.error(serverMessageOr(err, t('bundles.failed')));
  return (
    <li className="bundle-row" data-testid={`review-bundle-${b.id}`}>
      <div>
        <p className="muted small">{t('bundles.by', { nickname: b.creator_nickname })}</p>
        <BundleSummary bundle={b} />
        {b.description && <p className="small">{b.description}</p>}
      </div>
      {b.status === 'pending' && (
        <div className="bundle-actions">
          <button
            type="button"
            className="button primary"
            disabled={review.isPending}
            onClick={() => review.mutate({ id: b.id, decision: 'approve' }, { onSuccess: () => toast.success(t('bundles.approved')), onError: fail })}
          >
            {t('bundles.approve')}
          </button>
          {rejecting ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                if (!reason.trim()) {
                  setReasonError(t('bundles.reason_required'));
                  return;
                }
                review.mutate(
                  { id: b.id, decision: 'reject', reason: reason.trim() },
                  { onSuccess: () => toast.success(t('bundles.rejected')), onError: fail },
                );
              }}
            >
              <TextAreaField label={t('bundles.reject_reason')} value={reason} error={reasonError} rows={2} onChange={(e) => setReason(e.target.value)} />
              <button type="submit" className="button" disabled={review.isPending}>
                {t('bundles.reject')}
              </button>
            </form>
          ) : (
            <button type="button" className="button" onClick={() => setRejecting(true)}>
              {t('bundles.reject')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}
