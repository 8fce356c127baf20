/** The ledger's public face: other features import only this. */
export { balanceAnswer } from './balance';
export { type CommerceSettings, commissionOf, getCommerceSettings } from './commerce-settings';
export {
  accountIds,
  balanceOf,
  checkLedger,
  clearingAccountCode,
  InsufficientFunds,
  type LedgerCheck,
  openTransfer,
  PLATFORM_REVENUE,
  postTransfer,
  systemAccountId,
  type TransferLine,
  totalUserBalances,
  transfer,
  userAccountId,
} from './ledger';
export { MANUAL_ADJUSTMENTS, reconcile, userJournal } from './ledger.admin';
export { ledgerAdminRoutes } from './ledger.admin-routes';
export { ledgerRoutes } from './ledger.routes';
export { commerceSettingsSeeder } from './ledger.seed';
