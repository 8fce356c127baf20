/** Payouts' public face: the creator's payout requests (with the settle job), the staff queue, and the provider seam. */

export { type PayoutProvider, payoutMethodsFor, payoutProviderFor } from './payout-provider';
export { PAYOUT_IN_FLIGHT } from './payout-states';
export { insertPayout, maskIban, OFFER_ACQUISITIONS, type PayoutRow, preparePayoutDestination } from './payouts';
export { payoutsAdminRoutes } from './payouts.admin-routes';
export { payoutsRoutes } from './payouts.routes';
