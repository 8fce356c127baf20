/** The ledger's public face: other features import only this. */
export { balanceAnswer, lockedBalanceOf } from './balance';
export { type CommerceSettings, commerceSettingsOf, commissionOf, getCommerceSettings } from './commerce-settings';
export {
  accountIds,
  balanceOf,
  checkLedger,
  clearingAccountCode,
  InsufficientFunds,
  type LedgerCheck,
  lockAccounts,
  PLATFORM_REVENUE,
  platformRevenueMinor,
  REVENUE_SHARDS,
  revenueAccountCode,
  salesRevenueCode,
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
export { postSale, type Sale, type SaleRecords, type SaleShare, saleCommission, saleEarnings } from './sale';
