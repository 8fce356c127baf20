import type { AdminProductVersion } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { InlineError } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useReviewVersion, useVersionsForReview } from '../api/versions';

const errorText = (err: unknown) =>
  !err ? undefined : err instanceof ApiError ? (Object.values(err.errors)[0]?.[0] ?? err.message) : err instanceof Error ? err.message : String(err);

/** Back office (issue 34): new versions whose file changed type, oldest first, to approve or reject with a reason. */
export function VersionsReview() {
  const { t } = useTranslation();
  const queue = useVersionsForReview();
  return (
    <section className="admin-section" aria-labelledby="versions-review-title">
      <div className="admin-toolbar">
        <h2 id="versions-review-title">{t('versions.review_title')}</h2>
      </div>
      <p className="muted small">{t('versions.review_hint')}</p>
      {queue.isError ? (
        <p role="alert">{errorText(queue.error)}</p>
      ) : !queue.data ? (
        <p className="muted">{t('app.loading')}</p>
      ) : queue.data.length === 0 ? (
        <p className="muted">{t('versions.review_empty')}</p>
      ) : (
        <ol className="admin-list">
          {queue.data.map((v) => (
            <li key={v.id}>
              <VersionReview version={v} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function VersionReview({ version }: { version: AdminProductVersion }) {
  const { t } = useTranslation();
  const toast = useToast();
  const review = useReviewVersion();
  const [reason, setReason] = useState('');
  const onReject = (e: FormEvent) => {
    e.preventDefault();
    review.mutate({ id: version.id, decision: 'reject', reason }, { onSuccess: (a) => a.message && toast.success(a.message) });
  };
  return (
    <article className="admin-card" aria-label={version.product.title}>
      <header className="admin-card-head">
        <h3>
          {version.product.title} · {t('versions.version', { number: version.number })}
        </h3>
      </header>
      <p>
        @{version.creator.nickname} · {formatDateTime(Math.floor(new Date(version.created_at).getTime() / 1000))} ·{' '}
        {t('versions.review_types', { from: (version.current_type ?? '?').toUpperCase(), to: version.new_type.toUpperCase() })}
      </p>
      <p className="offer-review-text">{version.notes}</p>
      <p>
        <a href={version.file_url} download>
          {t('versions.download_file')}
        </a>
      </p>
      <div className="modal-actions">
        <button
          type="button"
          className="button primary"
          disabled={review.isPending}
          onClick={() => review.mutate({ id: version.id, decision: 'approve' }, { onSuccess: (a) => a.message && toast.success(a.message) })}
        >
          {t('versions.approve')}
        </button>
      </div>
      <form className="admin-form" onSubmit={onReject}>
        <label>
          {t('versions.reject_reason')}
          <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} />
        </label>
        <button type="submit" className="button" disabled={review.isPending}>
          {t('versions.reject')}
        </button>
      </form>
      <InlineError message={errorText(review.error)} />
    </article>
  );
}
