/** Payments' public face: deposits, the provider webhooks, the sandbox, and the expiry job. */

export { type DepositPurpose, registerDepositPurpose, startWidgetPayment } from './card-payments';
export { creditedDepositsTotal, expireStaleDeposits } from './deposits';
export { paymentsRoutes } from './payments.routes';
