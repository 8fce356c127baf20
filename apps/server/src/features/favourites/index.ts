/** Favourites' public face: the wishlist calls. */
export { favouritesRoutes } from './favourites.routes';
