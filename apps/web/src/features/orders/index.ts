/** The orders feature's public face: other features and the pages import only this file. */
export { OrderHistory } from './components/order-history';
export { PurchaseActions } from './components/purchase-actions';
