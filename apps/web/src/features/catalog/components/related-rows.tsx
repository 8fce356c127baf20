import type { ProductBase } from '@atelier/shared';
import { useId } from 'react';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useRelated } from '../api/catalog';
import { ProductCard } from './product-card';

function Row({ title, list }: { title: string; list: ProductBase[] }) {
  const id = useId();
  if (list.length === 0) return null;
  return (
    <section className="section related-row" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className="product-grid">
        {list.map((p) => (
          <li key={p.id}>
            <ProductCard product={p} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Below the buy box: 'More from {creator}' and 'Similar works', server-rendered with the page. */
export function RelatedRows({ slug, creator }: { slug: string; creator: string }) {
  const { t } = useTranslation();
  const related = useRelated(slug);
  if (!related.data) return null;
  return (
    <div data-testid="related">
      <Row title={t('products.more_from', { creator })} list={related.data.more_from} />
      <Row title={t('products.similar')} list={related.data.similar} />
    </div>
  );
}
