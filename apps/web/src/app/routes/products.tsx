import { pageDef } from '@atelier/shared/pages';
import { type Params, useParams } from 'react-router';
import { onDemand } from '../../lib/on-demand';

/**
 * /products/:param? — a product type (or nothing) is the list; anything else is a product id or slug.
 * The list and the product page are two modules, each loaded only where it shows: a visitor of one
 * never downloads the other's code (the buy box, reviews, chat), keeping each page's initial JavaScript
 * within its budget (issue 20). `prepare` loads the one an address shows before the first render.
 */
const List = onDemand(() => import('./products-list'));
const Page = onDemand(() => import('./products-page'));
/** The page table's rule for which part an address shows (the server names the same one in its HTML). */
const showsProduct = (params: Params) => pageDef('products').part?.(params) === 'products-page';

export function Component() {
  const params = useParams();
  if (showsProduct(params)) {
    const { ProductPage } = Page.read();
    return <ProductPage slug={params.param!} />;
  }
  const { ProductList } = List.read();
  return <ProductList />;
}

/** Loads the part an address shows (the router calls it before the first render, for hydration). */
export function prepare(params: Params) {
  return showsProduct(params) ? Page.load() : List.load();
}
