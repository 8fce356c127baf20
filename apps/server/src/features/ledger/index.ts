/** The ledger's public face: other features import only this. */
export { balanceAnswer, lockedBalanceOf } from './balance';
export { type CommerceSettings, commerceSettingsOf, commissionOf, getCommerceSettings } from './commerce-settings';
export {
  accountIds,
  balanceOf,
  chargeCtes,
  chargeEntriesOrRefuse,
  chargeLines,
  checkLedger,
  clearingAccountCode,
  InsufficientFunds,
  type LedgerCheck,
  lockAccounts,
  openTransfer,
  PLATFORM_REVENUE,
  platformRevenueMinor,
  postTransfer,
  REVENUE_SHARDS,
  refusalOf,
  revenueAccountCode,
  salesRevenueCode,
  systemAccountId,
  systemAccountIdSql,
  type TransferLine,
  totalUserBalances,
  transfer,
  userAccountId,
  userAccountIdSql,
} from './ledger';
export { MANUAL_ADJUSTMENTS, reconcile, userJournal } from './ledger.admin';
export { ledgerAdminRoutes } from './ledger.admin-routes';
export { ledgerRoutes } from './ledger.routes';
export { commerceSettingsSeeder } from './ledger.seed';
