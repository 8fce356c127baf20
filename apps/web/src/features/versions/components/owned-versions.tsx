import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useProductVersions } from '../api/versions';
import { VersionList } from './version-list';
import './versions.css';

/**
 * For a buyer's order history (issue 34): the versions of a work they own, with notes and dates,
 * loaded when opened; it shows only once the work has been updated.
 */
export function OwnedVersions({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const versions = useProductVersions(productId, open);
  return (
    <details className="owned-versions" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>{t('versions.history')}</summary>
      {versions.isError ? (
        <p role="alert" className="small">
          {t('versions.load_error')}
        </p>
      ) : versions.data ? (
        <VersionList versions={versions.data.versions} />
      ) : open ? (
        <p className="muted small">{t('app.loading')}</p>
      ) : null}
    </details>
  );
}
