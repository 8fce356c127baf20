/** The catalogue's public face: other features and the pages import only this file. */
export {
  type CatalogParams,
  useCatalog,
  useCategories,
  useCreatorWorks,
  usePack,
  usePackRedirect,
  useProduct,
  useRandomProducts,
  useRelated,
} from './api/catalog';
export { catalogUrl, isProductType, pageWindow, parseCatalogUrl, SORTS } from './catalog-url';
export { ProductCarousel } from './components/carousel';
export { Pagination } from './components/pagination';
export { Price, ProductPrice } from './components/price';
export { ProductCard, productHref } from './components/product-card';
export { ProductDetails } from './components/product-details';
export { RatingStars } from './components/rating-stars';
export { RelatedRows } from './components/related-rows';
export { SortSelect } from './components/sort-select';
