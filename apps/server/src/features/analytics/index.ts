/** Analytics' public face: the creator's and the back office's reports, and the product-view counter the catalogue feeds. */
export { analyticsAdminRoutes } from './analytics.admin-routes';
export { analyticsRoutes } from './analytics.routes';
export { isBot, viewCounterOf } from './views';
