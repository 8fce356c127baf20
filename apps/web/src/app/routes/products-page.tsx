import { lazy } from 'react';
import { ProductDetails, RelatedRows, usePackRedirect, useProduct } from '../../features/catalog';
import { HydrateWhenVisible } from '../../lib/on-demand';
import { productActions } from './product-actions';
// The server's HTML shows the reviews before their code loads: their styles come with the page.
import '../../features/reviews/components/reviews.css';

// Below the buy box: its code (the list, sorting, the author's reply form) loads when it nears the screen.
const ReviewsSection = lazy(() => import('../../features/reviews').then((m) => ({ default: m.ReviewsSection })));

/** A pack answers here too (by id or slug), and moves on to its own address, /packs/{slug}. */
export function ProductPage({ slug }: { slug: string }) {
  const query = useProduct(slug);
  usePackRedirect(query.data);
  return (
    <>
      <ProductDetails query={query} actions={productActions} />
      {query.data && query.data.product_type !== 'pack' && (
        <>
          <HydrateWhenVisible component={ReviewsSection} props={{ productId: query.data.id }} />
          <RelatedRows slug={slug} creator={query.data.author} />
        </>
      )}
    </>
  );
}
