/** Earnings' public face: a creator's pending and available earnings, their release job and withdrawals. */
export { EARNINGS_RELEASE } from './earnings';
export { earningsRoutes } from './earnings.routes';
