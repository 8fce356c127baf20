import { useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Pagination, ProductCard } from '../../features/catalog';
import { useFavourites } from '../../features/favourites';
import { useTranslation } from '../../lib/i18n-runtime';

/** The dashboard's Favourites tab: the works the user hearted, as the shop's cards. */
export function Component() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const top = useRef<HTMLElement>(null);
  const query = useFavourites(page);
  return (
    <section className="panel scroll-anchor" ref={top} aria-labelledby="favourites-title" data-testid="favourites">
      <h2 id="favourites-title">{t('favourites.title')}</h2>
      {query.isPending ? (
        <p role="status">{t('app.loading')}</p>
      ) : query.isError ? (
        <p role="alert">{t('favourites.load_error')}</p>
      ) : query.data.payload.length === 0 ? (
        <p className="muted">
          {t('favourites.empty')} <Link to="/products">{t('products.title')}</Link>
        </p>
      ) : (
        <>
          <ul className="product-grid">
            {query.data.payload.map((p) => (
              <li key={p.id}>
                <ProductCard product={p} />
              </li>
            ))}
          </ul>
          <Pagination
            page={page}
            pages={query.data.meta.pages}
            hrefFor={(n) => (n > 1 ? `/dashboard/favourites?page=${n}` : '/dashboard/favourites')}
            top={top}
          />
        </>
      )}
    </section>
  );
}
