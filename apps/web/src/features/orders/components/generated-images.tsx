import type { Generation } from '@atelier/shared';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price } from '../../catalog';
import { useGenerations } from '../api/generations';
import { DownloadButton } from './download-button';

/**
 * The buyer's generated images beside their orders (issue 29): every paid one shows, whatever
 * happened to the request that asked for it, with its download once ready.
 */
export function GeneratedImages() {
  const { t } = useTranslation();
  const generations = useGenerations();
  if (generations.isPending) return null;
  if (generations.isError)
    return (
      <p className="error-text" role="alert">
        {t('orders.generations_load_failed')}
      </p>
    );
  if (!generations.data.length) return null;
  return (
    <section className="generated-images" aria-labelledby="generated-images-title">
      <h2 id="generated-images-title">{t('orders.generations_title')}</h2>
      <ul className="order-items">
        {generations.data.map((g) => (
          <GeneratedImage key={g.id} generation={g} />
        ))}
      </ul>
    </section>
  );
}

function GeneratedImage({ generation: g }: { generation: Generation }) {
  const { t } = useTranslation();
  const title = g.prompt_title ?? t('orders.generation_fallback', { id: g.id });
  return (
    <li className="order-item" data-testid="generation" data-status={g.status}>
      <span className="order-thumb" aria-hidden="true">
        {title.slice(0, 1)}
      </span>
      <div>
        <p className="order-item-title">{title}</p>
        <span className="muted small">
          <time dateTime={new Date(g.created_at * 1000).toISOString()}>{formatDateTime(g.created_at)}</time>
          {g.status === 'processing' && ` · ${t('orders.generation_processing_note')}`}
        </span>
      </div>
      <div className="order-item-side">
        <Price amount={g.price} currency="EUR" />
        {g.download_url ? (
          <DownloadButton url={g.download_url} title={title} label={t('orders.download')} className="button primary" />
        ) : (
          <span className="order-status" data-status={g.status}>
            {t(`orders.generation_${g.status}`)}
          </span>
        )}
      </div>
    </li>
  );
}
