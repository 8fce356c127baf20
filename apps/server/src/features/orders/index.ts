/** Orders' public face: purchases from the balance, order history, downloads. */

export { loadSellables, MESSAGES as saleMessages, saleProblem, shortfallMessage } from './checkout';
export { listOrders, ownedAmong } from './orders.queries';
export { buyFromBalance, ordersRoutes } from './orders.routes';
