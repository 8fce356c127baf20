/** The cart feature's public face: other features and the pages import only this file. */
export { useCartCount } from './api/cart-count';
export { AddToCartButton } from './components/add-to-cart-button';
export { CartView } from './components/cart-view';
export { CheckoutView } from './components/checkout-view';
