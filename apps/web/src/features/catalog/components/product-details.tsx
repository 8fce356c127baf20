import type { Product, ProductDetails as ProductDetailsData } from '@atelier/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { usePageTitle } from '../../../lib/page-title';
import { FavouriteButton } from '../../favourites';
import { ProductPrice } from './price';
import { ProductCard } from './product-card';
import { RatingStars } from './rating-stars';
import { FileDetails, PackSaving, SalesCount } from './trust-signals';

const TYPE_KEY = { image: 'products.type_image', doc: 'products.type_doc', prompt: 'products.type_prompt', pack: 'products.type_pack' } as const;

type Query = { isPending: boolean; isError: boolean; error: Error | null; data: ProductDetailsData | undefined; refetch: () => unknown };

/**
 * SPEC §2 product details (and pack details, which add their items). `actions` renders the buy box
 * (the page composes it from the orders and cart features).
 */
export function ProductDetails({ query, actions, kind = 'product' }: { query: Query; actions?: (product: Product) => ReactNode; kind?: 'product' | 'pack' }) {
  const { t } = useTranslation();
  const product = query.data;
  const missing = query.error instanceof ApiError && query.error.status === 404;
  // A missing item's tab says what is missing, as the server's 404 page does (issue 18 bug 9).
  const missingTitle = kind === 'pack' ? t('pages.pack_not_found_title') : t('pages.product_not_found_title');

  usePageTitle(product?.title ?? (missing ? missingTitle : undefined));

  if (query.isPending) return <DetailsSkeleton />;
  if (query.isError || !product) {
    return (
      <section className="page narrow center state-block" role="alert">
        <h1>{missing ? t('products.not_found') : t('products.details_error')}</h1>
        <Link className="button" to="/products">
          {t('products.back_to_shop')}
        </Link>
      </section>
    );
  }

  return (
    <article className="details" data-testid="product-details">
      <nav className="breadcrumbs" aria-label={t('nav.breadcrumb')}>
        <Link to="/products">{t('products.title')}</Link>
        <span aria-hidden="true">/</span>
        <Link to={`/products?type=${product.product_type}`}>{t(TYPE_KEY[product.product_type])}</Link>
      </nav>
      <div className="details-grid">
        <div className="details-media">
          {product.imageUrl ? (
            <img
              src={product.imageUrl}
              srcSet={product.imageSrcSet ?? undefined}
              // styles.css: the wider column of .details-grid from 900 px, else the width inside the page padding.
              sizes="(min-width: 900px) 640px, calc(100vw - 32px)"
              alt={product.title}
              width={960}
              height={720}
              fetchPriority="high"
              decoding="async"
            />
          ) : (
            <div className="card-placeholder large" aria-hidden="true">
              {product.title.slice(0, 1)}
            </div>
          )}
        </div>
        <div className="details-info">
          <span className="pill">{t(TYPE_KEY[product.product_type])}</span>
          <div className="details-title">
            <h1>{product.title}</h1>
            <FavouriteButton productId={product.id} title={product.title} large />
          </div>
          {/* Only a rated work links to its reviews: an empty link has no name (Lighthouse's link-name). */}
          {product.rating_count > 0 && (
            <a href="#reviews" className="details-rating">
              <RatingStars average={product.rating_average} count={product.rating_count} />
            </a>
          )}
          <SalesCount count={product.sales_count} />
          <Link className="author" to={`/profile/${product.authorNickname}`}>
            {product.authorAvatarUrl ? (
              <img src={product.authorAvatarUrl} alt="" width={40} height={40} className="avatar" />
            ) : (
              <span className="avatar avatar-fallback" aria-hidden="true">
                {product.author.slice(0, 1)}
              </span>
            )}
            <span>
              <span className="muted small">{t('products.author')}</span>
              <span className="author-name">{product.author}</span>
            </span>
          </Link>
          <div className="buy-box">
            <ProductPrice product={product} className="price-large" ends />
            <PackSaving product={product} />
            {/* Issue 34: a work offered with several licences says so; the buy dialog picks one. */}
            <p className="muted small">
              <Link to="/licences/commercial">
                {(product.licences?.length ?? 0) > 1 ? t('licences.several', { count: product.licences!.length }) : t('products.license')}
              </Link>
            </p>
            {actions ? (
              actions(product)
            ) : (
              <>
                <div className="buy-actions">
                  <button type="button" className="button primary" disabled aria-describedby="buy-soon">
                    {t('products.buy')}
                  </button>
                  <button type="button" className="button" disabled aria-describedby="buy-soon">
                    {t('products.contact_creator')}
                  </button>
                </div>
                <p id="buy-soon" className="muted small">
                  {t('products.buy_soon')}
                </p>
              </>
            )}
          </div>
          <p className="details-description">{product.description}</p>
          <FileDetails file={product.file} />
          {product.tags.length > 0 && (
            <div>
              <h2 className="small-heading">{t('products.tags')}</h2>
              <ul className="tags">
                {product.tags.map((tag) => (
                  <li key={tag}>
                    <Link to={`/products?search=${encodeURIComponent(tag)}`}>#{tag}</Link>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </div>
      {product.items && product.items.length > 0 && (
        <section className="section" aria-labelledby="pack-items">
          <h2 id="pack-items">
            {t('products.pack_items')} <span className="muted">· {t('products.includes_items', { count: product.items.length })}</span>
          </h2>
          <ul className="product-grid">
            {product.items.map((item) => (
              <li key={item.id}>
                <ProductCard product={item} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}

function DetailsSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="details-grid" role="status" aria-label={t('app.loading')}>
      <div className="skeleton details-media-skeleton" />
      <div className="details-info">
        <div className="skeleton line w40" />
        <div className="skeleton line w80 tall" />
        <div className="skeleton line w60" />
        <div className="skeleton block" />
      </div>
    </div>
  );
}
