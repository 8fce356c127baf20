import type { ProductBase } from '@atelier/shared';
import { CARD_TAGLINES } from '@atelier/shared/constants';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n-runtime';
import { pageSeed } from '../../../lib/ssr-env';
import { FavouriteButton } from '../../favourites';
import { ProductPrice } from './price';
import { RatingStars } from './rating-stars';

export function productHref(p: Pick<ProductBase, 'product_type' | 'slug'>): string {
  return p.product_type === 'pack' ? `/packs/${p.slug}` : `/products/${p.slug}`;
}

/**
 * SPEC §9: every card shows one of the three taglines, picked at random once per card. The pick comes
 * from the page's random seed and the product id, so the server and the browser pick the same one.
 */
export function cardTagline(productId: number, seed: number): string {
  // A small integer hash (Mulberry32's mix) spreads neighbouring ids and seeds over the taglines.
  let h = (seed ^ Math.imul(productId, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 15), h | 1);
  h ^= h + Math.imul(h ^ (h >>> 7), h | 61);
  const unit = ((h ^ (h >>> 14)) >>> 0) / 2 ** 32;
  return CARD_TAGLINES[Math.floor(unit * CARD_TAGLINES.length)] ?? CARD_TAGLINES[0];
}

/**
 * The line a card shows under its price. SPEC §9's random taglines describe image files, so only
 * image cards get one; prompts, texts and packs say what is true of them.
 */
export function truthfulTagline(
  product: Pick<ProductBase, 'id' | 'product_type'> & { file_type?: string | null; items?: unknown[] },
  seed: number,
  t: (key: string, opts?: Record<string, unknown>) => string,
): string {
  switch (product.product_type) {
    case 'image':
      return cardTagline(product.id, seed);
    case 'prompt':
      return t('products.tagline_prompt');
    case 'doc':
      return product.file_type ? t('products.tagline_doc_file', { type: product.file_type }) : t('products.tagline_doc');
    case 'pack':
      return product.items ? t('products.tagline_pack', { count: product.items.length }) : t('products.tagline_pack_plain');
  }
}

/** How wide a card is shown (styles.css: the grid's 280 px minimum columns, the carousel's slides). */
const CARD_SIZES = '(min-width: 1200px) 380px, (min-width: 640px) 50vw, calc(100vw - 32px)';

const TYPE_KEY = { image: 'products.type_image', doc: 'products.type_doc', prompt: 'products.type_prompt', pack: 'products.type_pack' } as const;

/** headingLevel: 2 where the card list has no section heading of its own (the shop grid), else 3. */
type Props = { product: ProductBase; eager?: boolean; tagline?: boolean; headingLevel?: 2 | 3 };

export function ProductCard({ product, eager = false, tagline = false, headingLevel = 3 }: Props) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const { t } = useTranslation();
  const [seed] = useState(pageSeed);
  const line = truthfulTagline(product, seed, t);
  return (
    <article className="card" data-testid="product-card">
      <Link to={productHref(product)} className="card-link">
        <div className="card-media">
          {product.imageUrl ? (
            <img
              src={product.imageUrl}
              srcSet={product.imageSrcSet ?? undefined}
              sizes={CARD_SIZES}
              alt=""
              width={480}
              height={360}
              loading={eager ? 'eager' : 'lazy'}
              decoding="async"
              fetchPriority={eager ? 'high' : 'auto'}
            />
          ) : (
            <div className="card-placeholder" aria-hidden="true">
              {product.title.slice(0, 1)}
            </div>
          )}
          <span className="card-type">{t(TYPE_KEY[product.product_type])}</span>
        </div>
        <div className="card-body">
          <Heading className="card-title">{product.title}</Heading>
          <p className="card-author">
            {t('products.by')} {product.author}
          </p>
          <RatingStars average={product.rating_average} count={product.rating_count} />
          <p className="card-description">{product.description}</p>
          <div className="card-footer">
            <ProductPrice product={product} />
            {tagline && <span className="card-tagline">{line}</span>}
          </div>
        </div>
      </Link>
      <span className="card-heart">
        <FavouriteButton productId={product.id} title={product.title} />
      </span>
    </article>
  );
}
