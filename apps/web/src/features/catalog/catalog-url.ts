import type { ProductType } from '@atelier/shared';
import { CATALOG_DEFAULT_SORT, PRODUCT_TYPES } from '@atelier/shared/constants';
import type { CatalogParams } from './api/catalog';

export const SORTS = [
  { value: 'id~desc', label: 'products.sort_newest' },
  { value: 'id~asc', label: 'products.sort_oldest' },
  { value: 'price~asc', label: 'products.sort_price_asc' },
  { value: 'price~desc', label: 'products.sort_price_desc' },
  { value: 'created_at~desc', label: 'products.sort_recent' },
  { value: 'popularity~desc', label: 'products.sort_popular' },
] as const;

export function isProductType(value: string | undefined | null): value is ProductType {
  return PRODUCT_TYPES.includes(value as ProductType);
}

/**
 * The products page keeps its whole state in the URL (shareable; back and forward work):
 * /products/{type}? ?search= &type= &category= (repeatable) &sort= &page=
 */
export function parseCatalogUrl(pathType: string | undefined, query: URLSearchParams): CatalogParams {
  const typeText = isProductType(pathType) ? pathType : query.get('type');
  const sort = query.get('sort') ?? '';
  const page = Number.parseInt(query.get('page') ?? '', 10);
  return {
    search: query.get('search') ?? '',
    type: isProductType(typeText) ? typeText : undefined,
    categories: query
      .getAll('category')
      .flatMap((v) => v.split(','))
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0),
    sort: SORTS.some((s) => s.value === sort) ? sort : CATALOG_DEFAULT_SORT,
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The canonical URL of a state; defaults are left out so links stay short. */
export function catalogUrl(p: CatalogParams): string {
  const q = new URLSearchParams();
  if (p.search) q.set('search', p.search);
  if (p.type) q.set('type', p.type);
  for (const c of p.categories) q.append('category', String(c));
  if (p.sort && p.sort !== CATALOG_DEFAULT_SORT) q.set('sort', p.sort);
  if (p.page > 1) q.set('page', String(p.page));
  const text = q.toString();
  return text ? `/products?${text}` : '/products';
}

/** The page numbers to show: first, last, and a window around the current one; null marks a gap. */
export function pageWindow(current: number, pages: number, radius = 1): (number | null)[] {
  const out: (number | null)[] = [];
  for (let p = 1; p <= pages; p++) {
    if (p === 1 || p === pages || Math.abs(p - current) <= radius) out.push(p);
    else if (out.at(-1) !== null) out.push(null);
  }
  return out;
}
