import type { ProductVersion } from '@atelier/shared';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';

const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

/** A work's versions, newest first: number, date, format and notes (the creator also sees each one's state). */
export function VersionList({ versions, showStatus = false }: { versions: ProductVersion[]; showStatus?: boolean }) {
  const { t } = useTranslation();
  if (!versions.length) return <p className="muted small">{t('versions.none')}</p>;
  return (
    <ol className="version-list" aria-label={t('versions.history')}>
      {versions.map((v) => {
        const at = v.published_at ?? v.created_at;
        return (
          <li key={v.id} className="version-item" data-testid="version">
            <p>
              <strong>{t('versions.version', { number: v.number })}</strong> · <time dateTime={at}>{formatDateTime(seconds(at))}</time>
              {v.format ? ` · ${v.format}` : ''}
              {showStatus && (
                <span className="version-status" data-status={v.status}>
                  {' '}
                  · {t(`versions.status_${v.status}`)}
                </span>
              )}
            </p>
            <p className="version-notes">{v.number === 1 && !v.notes ? t('versions.first_release') : v.notes}</p>
            {showStatus && v.review_note && <p className="muted small">{t('versions.rejected_note', { note: v.review_note })}</p>}
          </li>
        );
      })}
    </ol>
  );
}
