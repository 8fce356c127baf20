import type { Category, ProductType } from '@atelier/shared';
import { CATALOG_DEBOUNCE_MS, CATALOG_PAGE_SIZE, PRODUCT_TYPES } from '@atelier/shared/constants';
import { formatNumber } from '@atelier/shared/money';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { SearchIcon } from '../../components/ui/icons';
import { type CatalogParams, catalogUrl, Pagination, ProductCard, parseCatalogUrl, SortSelect, useCatalog, useCategories } from '../../features/catalog';
import { useTranslation } from '../../lib/i18n-runtime';
import { usePageTitle } from '../../lib/page-title';
import { useDebounced } from '../../lib/use-debounced';

const TYPE_LABEL: Record<ProductType, string> = {
  image: 'products.type_image',
  doc: 'products.type_doc',
  prompt: 'products.type_prompt',
  pack: 'products.type_pack',
};

function CategorySelect({ value, onChange }: { value: number | undefined; onChange: (id: number | undefined) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const categories = useCategories();
  const list = categories.data ?? [];
  const top = list.filter((c) => c.parent_id === null);
  const childrenOf = (parent: Category) => list.filter((c) => c.parent_id === parent.id);
  return (
    <div className="field-inline">
      <label htmlFor={id}>{t('products.category')}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : undefined)} disabled={categories.isError}>
        <option value="">{categories.isError ? t('categories.load_error') : t('products.all_categories')}</option>
        {top.map((parent) => (
          <optgroup key={parent.id} label={parent.title}>
            <option value={parent.id}>{parent.title}</option>
            {childrenOf(parent).map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </div>
  );
}

export function ProductList() {
  const { t, i18n } = useTranslation();
  const { param } = useParams();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const params = parseCatalogUrl(param, query);
  // The list of one type is titled for it, as the server titles its HTML (pages.ts `titleOf`).
  usePageTitle(params.type ? t(TYPE_LABEL[params.type]) : undefined);
  const [text, setText] = useState(params.search);
  const top = useRef<HTMLDivElement>(null);

  // Back/forward (or the header search) changed the URL: the box follows it.
  useEffect(() => setText(params.search), [params.search]);

  function go(next: Partial<CatalogParams>, replace = false) {
    navigate(catalogUrl({ ...params, page: 1, ...next }), { replace, preventScrollReset: true });
  }

  // SPEC §9: catalog requests are debounced by 500 ms; the URL itself updates at once.
  const requestKey = useDebounced(JSON.stringify({ ...params, search: params.search.trim() }), CATALOG_DEBOUNCE_MS);
  const request = JSON.parse(requestKey) as CatalogParams;
  const catalog = useCatalog(request);
  const meta = catalog.data?.meta;
  const products = catalog.data?.payload ?? [];
  const pages = meta?.pages ?? 0;
  const asked = requestKey === JSON.stringify({ ...params, search: params.search.trim() });
  const waiting = catalog.isFetching || !asked;
  // The previous answer stays on screen while the next one loads: its count is not this search's.
  const counted = asked && !catalog.isPlaceholderData;
  const hasFilters = Boolean(params.search || params.type || params.categories.length);

  return (
    <div className="shop" ref={top}>
      <div className="shop-head">
        <div>
          <h1>{params.type ? t(TYPE_LABEL[params.type]) : t('products.title')}</h1>
          {/* Always rendered, so the count arriving does not push the list down (no layout shift). */}
          <p className="muted" aria-live="polite" data-testid="result-count">
            {meta && counted
              ? meta.total_estimated
                ? // Past a thousand matches the server estimates: shown rounded, as "about".
                  t(params.search.trim() ? 'products.results_for_about' : 'products.results_about', {
                    total: formatNumber(Number(meta.total.toPrecision(2)), i18n.language),
                    search: params.search.trim(),
                  })
                : params.search.trim()
                  ? t('products.results_for', { count: meta.total, search: params.search.trim() })
                  : t('products.results', { count: meta.total })
              : '\u00a0'}
          </p>
        </div>
        <form className="shop-search" role="search" aria-label={t('products.search_label')} onSubmit={(e) => e.preventDefault()}>
          <SearchIcon size={18} />
          <input
            type="search"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              go({ search: e.target.value }, true);
            }}
            placeholder={t('nav.search_placeholder')}
            aria-label={t('products.search_label')}
            data-testid="shop-search"
          />
        </form>
      </div>

      <div className="shop-toolbar">
        <div className="chips" role="group" aria-label={t('products.type')}>
          <button type="button" className="chip" aria-pressed={!params.type} onClick={() => go({ type: undefined, categories: [] })}>
            {t('products.all_types')}
          </button>
          {PRODUCT_TYPES.map((type) => (
            <button key={type} type="button" className="chip" aria-pressed={params.type === type} onClick={() => go({ type, categories: [] })}>
              {t(TYPE_LABEL[type])}
            </button>
          ))}
        </div>
        <div className="shop-selects">
          <CategorySelect value={params.categories[0]} onChange={(id) => go({ categories: id ? [id] : [] })} />
          <SortSelect value={params.sort} onChange={(sort) => go({ sort })} />
        </div>
      </div>

      <div className="shop-results" aria-busy={waiting}>
        {catalog.isError ? (
          <div className="state-block" role="alert">
            <p>{t('products.load_error')}</p>
            <p className="muted small">{catalog.error.message}</p>
            <button type="button" className="button" onClick={() => catalog.refetch()}>
              {t('products.retry')}
            </button>
          </div>
        ) : catalog.isPending ? (
          <ul className="product-grid" role="status" aria-label={t('app.loading')}>
            {Array.from({ length: CATALOG_PAGE_SIZE }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
              <li key={i} className="skeleton card-skeleton" />
            ))}
          </ul>
        ) : products.length === 0 ? (
          <div className="state-block">
            <p className="state-title">{t('products.empty')}</p>
            <p className="muted">{t('products.empty_hint')}</p>
            {hasFilters && (
              <Link className="button" to="/products">
                {t('products.clear_filters')}
              </Link>
            )}
          </div>
        ) : (
          <ul className={`product-grid${waiting ? ' is-stale' : ''}`} data-testid="product-grid">
            {products.map((p, i) => (
              <li key={p.id}>
                <ProductCard product={p} eager={i < 3} headingLevel={2} />
              </li>
            ))}
          </ul>
        )}
      </div>

      <Pagination page={params.page} pages={pages} hrefFor={(page) => catalogUrl({ ...params, page })} top={top} />
    </div>
  );
}
