import type { Storefront } from '@atelier/shared';
import { useId } from 'react';
import { useTranslation } from '../../../lib/i18n-runtime';
import { ProductCard } from '../../catalog';
import './storefronts.css';

/** What a link shows: its label, or its address without the scheme. */
const linkText = (link: { label: string; url: string }) => link.label || link.url.replace(/^https:\/\//, '').replace(/\/$/, '');

/** The creator's banner across the top of their profile (nothing when they set none). */
export function StorefrontBanner({ storefront }: { storefront: Storefront | undefined }) {
  if (!storefront?.banner_url) return null;
  return (
    <img
      className="storefront-banner storefront-public-banner"
      src={storefront.banner_url}
      alt=""
      width="1500"
      height="500"
      fetchPriority="high"
      data-testid="storefront-banner"
    />
  );
}

/** Headline, sales and links, under the creator's name (the follow button beside it counts the followers). */
export function StorefrontIntro({ storefront }: { storefront: Storefront | undefined }) {
  const { t } = useTranslation();
  if (!storefront) return null;
  return (
    <div className="storefront-intro" data-testid="storefront-intro">
      {storefront.headline && <p className="storefront-headline">{storefront.headline}</p>}
      <p className="storefront-stats" data-testid="storefront-sales">
        {t('storefront.sales', { count: storefront.sales_count })}
      </p>
      {storefront.links.length > 0 && (
        <nav aria-label={t('storefront.links_label', { nickname: storefront.nickname })}>
          <ul className="storefront-links">
            {storefront.links.map((link) => (
              <li key={link.url}>
                <a href={link.url} rel="me nofollow ugc noopener noreferrer" target="_blank">
                  {linkText(link)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
  );
}

/** Up to six works the creator put first, in their order (only works still listed come from the server). */
export function StorefrontShowcase({ storefront }: { storefront: Storefront | undefined }) {
  const { t } = useTranslation();
  const headingId = useId();
  if (!storefront || storefront.featured.length === 0) return null;
  return (
    <section className="panel storefront-showcase" aria-labelledby={headingId} data-testid="storefront-featured">
      <h2 id={headingId}>{t('storefront.featured_heading', { nickname: storefront.nickname })}</h2>
      <ul className="product-grid">
        {storefront.featured.map((product) => (
          <li key={product.id}>
            <ProductCard product={product} headingLevel={3} />
          </li>
        ))}
      </ul>
    </section>
  );
}
