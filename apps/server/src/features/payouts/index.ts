/** Payouts' public face: the creator's payout requests (with the settle job), the staff queue, and the provider seam. */

export { type PayoutProvider, payoutMethodsFor } from './payout-provider';
export { OFFER_ACQUISITIONS } from './payouts';
export { payoutsAdminRoutes } from './payouts.admin-routes';
export { payoutsRoutes } from './payouts.routes';
