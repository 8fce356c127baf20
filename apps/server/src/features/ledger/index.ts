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
export { ledgerRoutes } from './ledger.routes';
export { commerceSettingsSeeder } from './ledger.seed';
