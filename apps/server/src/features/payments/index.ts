/** Payments' public face: deposits, the provider webhooks, the sandbox, and the expiry job. */
export { creditedDepositsTotal, expireStaleDeposits } from './deposits';
export { paymentsRoutes } from './payments.routes';
