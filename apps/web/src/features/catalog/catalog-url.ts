import { type CatalogParams, isProductType, parseCatalogUrl, SORTS } from '@atelier/shared/catalog-url';
import { CATALOG_DEFAULT_SORT } from '@atelier/shared/constants';

// The URL reading is shared with the server, which answers the page's first catalog call in its HTML.
export { isProductType, parseCatalogUrl, SORTS };

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
