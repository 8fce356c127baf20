/** Payouts' public face: the creator's payout requests (with the settle job) and the staff queue. */

export { OFFER_ACQUISITIONS } from './payouts';
export { payoutsAdminRoutes } from './payouts.admin-routes';
export { payoutsRoutes } from './payouts.routes';
