import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n-runtime';

/** Grey lines where a list will be, announced as loading. */
export function SkeletonRows({
  rows = 2,
  className = 'order-skeleton',
  rowClassName = 'skeleton line',
}: {
  rows?: number;
  className?: string;
  rowClassName?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={className} role="status" aria-label={t('app.loading')}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
        <div key={i} className={rowClassName} />
      ))}
    </div>
  );
}

/** A list that could not load: what went wrong and a button to ask again. */
export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="state-block" role="alert">
      <p className="state-title error-text">{message}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('products.retry')}
      </button>
    </div>
  );
}

/** A list with nothing in it yet, and what to do about it (`children`, a link or a hint). */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state-block">
      <p className="state-title">{title}</p>
      {children}
    </div>
  );
}
