/** Buyer protection's public face: refund requests for buyers and creators, the staff queue and receivables. */
export { REFUND_MESSAGES } from './refunds';
export { refundsAdminRoutes } from './refunds.admin-routes';
export { refundsRoutes } from './refunds.routes';
