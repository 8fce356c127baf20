/** The cart feature's public face: other features and the pages import only this file. */
export { useCartCount } from './api/cart-count';
