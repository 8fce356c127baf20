import type { RefObject } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n-runtime';
import { pageWindow } from '../catalog-url';

/**
 * Previous, the page numbers and Next, as links (each page has its own address). Following one
 * scrolls back to the top of the results (`top`): the new page starts where the list starts, not at
 * the footer where the button was.
 */
export function Pagination({
  page,
  pages,
  hrefFor,
  top,
}: {
  page: number;
  pages: number;
  hrefFor: (page: number) => string;
  top: RefObject<HTMLElement | null>;
}) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  const toTop = () => {
    const el = top.current;
    if (!el) return;
    // Under the sticky header: the element's scroll-margin-top leaves room for it.
    el.scrollIntoView({ block: 'start' });
  };
  return (
    <>
      <nav className="pagination" aria-label={t('products.pagination')}>
        {page > 1 ? (
          <Link to={hrefFor(page - 1)} className="page-link" rel="prev" preventScrollReset onClick={toTop}>
            {t('products.previous')}
          </Link>
        ) : (
          <span className="page-link disabled" aria-disabled="true">
            {t('products.previous')}
          </span>
        )}
        <span className="page-numbers">
          {pageWindow(page, pages).map((n, i) =>
            n === null ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity.
              <span key={`gap-${i}`} className="page-gap" aria-hidden="true">
                …
              </span>
            ) : (
              <Link
                key={n}
                to={hrefFor(n)}
                className="page-link"
                aria-current={n === page ? 'page' : undefined}
                aria-label={t('products.page', { page: n })}
                preventScrollReset
                onClick={toTop}
              >
                {n}
              </Link>
            ),
          )}
        </span>
        {page < pages ? (
          <Link to={hrefFor(page + 1)} className="page-link" rel="next" preventScrollReset onClick={toTop}>
            {t('products.next')}
          </Link>
        ) : (
          <span className="page-link disabled" aria-disabled="true">
            {t('products.next')}
          </span>
        )}
      </nav>
      <p className="page-status muted">{t('products.page_of', { page, pages })}</p>
    </>
  );
}
