import { CATALOG_DEFAULT_SORT, CATALOG_PAGE_SIZE, PRODUCT_TYPES, type ProductType } from './constants';

/**
 * The products page keeps its whole state in the URL; the web app reads it to ask the catalog, and
 * the server reads the same URL to answer that first question inside the HTML it sends.
 */
export type CatalogParams = {
  page: number;
  sort: string;
  type?: ProductType;
  categories: number[];
  search: string;
};

export const SORTS = [
  { value: 'id~desc', label: 'products.sort_newest' },
  { value: 'id~asc', label: 'products.sort_oldest' },
  { value: 'price~asc', label: 'products.sort_price_asc' },
  { value: 'price~desc', label: 'products.sort_price_desc' },
  { value: 'created_at~desc', label: 'products.sort_recent' },
  { value: 'popularity~desc', label: 'products.sort_popular' },
  { value: 'rating~desc', label: 'products.sort_rating' },
] as const;

export function isProductType(value: string | undefined | null): value is ProductType {
  return PRODUCT_TYPES.includes(value as ProductType);
}

/** /products/{type}? ?search= &type= &category= (repeatable) &sort= &page= */
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

/** The query of GET /api/products/catalog for a page state (empty values are left out). */
export function catalogApiQuery(p: CatalogParams): Record<string, string | number | (string | number)[] | undefined> {
  return {
    page: p.page,
    limit: CATALOG_PAGE_SIZE,
    sort: p.sort || CATALOG_DEFAULT_SORT,
    product_type: p.type,
    categories_id: p.categories.length ? p.categories : undefined,
    search: p.search.trim() || undefined,
  };
}

/** A creator's works on /profile/{nickname}?sort= &page=: paged like the shop, sortable. */
export type CreatorWorksParams = { author: string; page: number; sort: string };

export function parseCreatorWorksUrl(author: string, query: URLSearchParams): CreatorWorksParams {
  const { page, sort } = parseCatalogUrl(undefined, query);
  return { author, page, sort };
}

/** The query of GET /api/products/catalog for a creator's works. */
export function creatorWorksApiQuery(p: CreatorWorksParams): Record<string, string | number | undefined> {
  return { author: p.author, page: p.page, limit: CATALOG_PAGE_SIZE, sort: p.sort || CATALOG_DEFAULT_SORT };
}
