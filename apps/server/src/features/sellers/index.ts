/** Trader details' public face (issue 33): the routes, and the gate before a first listing or withdrawal. */

export { requireSellerDetails } from './sellers';
export { sellersAdminRoutes } from './sellers.admin-routes';
export { sellersRoutes } from './sellers.routes';
export { demoSellersSeeder } from './sellers.seed';
