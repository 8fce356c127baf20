/** Payments' public face: deposits, the provider webhooks, the sandbox, and the expiry job. */

export { createCardIntent, type DepositPurpose, type PurposeLock, registerDepositPurpose, startWidgetCheckout } from './card-payments';
export { creditedDepositsTotal, expireStaleDeposits } from './deposits';
export { disputesAdminRoutes } from './disputes.admin-routes';
export { paymentsRoutes } from './payments.routes';
