/** Payouts' public face: the creator's payout requests (with the settle job) and the staff queue. */
export { payoutsAdminRoutes } from './payouts.admin-routes';
export { payoutsRoutes } from './payouts.routes';
