/** The ledger's public face: other features import only this. */
export { amountAnswer, balanceAnswer, lockedBalanceOf } from './balance';
export { type CommerceSettings, commerceSettingsOf, commissionOf, getCommerceSettings } from './commerce-settings';
export { type DisputeSplit, forfeitDisputeHold, holdDisputedPayment, refundDeposit, releaseDisputeHold } from './disputes';
export { availableEarningsOf, earningsOf, holdWithdrawal, payWithdrawal, receivableAccountId, releaseDueEarnings, returnWithdrawal } from './earnings';
export {
  accountIds,
  balanceOf,
  checkLedger,
  clearingAccountCode,
  DISPUTES_HOLD,
  earningsAvailableCode,
  earningsHeldCode,
  earningsPendingCode,
  existingAccountId,
  InsufficientFunds,
  type LedgerCheck,
  lockAccounts,
  PLATFORM_REVENUE,
  platformRevenueMinor,
  REVENUE_SHARDS,
  receivableCode,
  revenueAccountCode,
  salesRevenueCode,
  spendableOf,
  systemAccountId,
  type TransferLine,
  totalUserBalances,
  transfer,
  userAccountId,
  WITHDRAWALS_IN_FLIGHT,
} from './ledger';
export { MANUAL_ADJUSTMENTS, reconcile, userJournal } from './ledger.admin';
export { ledgerAdminRoutes } from './ledger.admin-routes';
export { ledgerRoutes } from './ledger.routes';
export { commerceSettingsSeeder } from './ledger.seed';
export { RECONCILIATION_JOB, registerReconciliationCheck } from './reconciliation-check';
export {
  payDebtFromDeposit,
  postRefund,
  receivableOwedOf,
  saleRevenueAccountOf,
  settleAllReceivables,
  settleReceivable,
  settleReceivablesOf,
  settleReceivablesOfOrder,
} from './refund';
export { holdForRefundRequest, releaseRefundHold } from './refund-hold';
export {
  knownSaleAccounts,
  postSale,
  type Sale,
  type SaleAccountRow,
  type SaleRecords,
  type SaleShare,
  type SaleStatementShape,
  saleAccountColumns,
  saleAccountIds,
  saleAccountValues,
  saleCommission,
  saleEarnings,
  saleSellerShare,
  vatPayableCode,
} from './sale';
export type { SaleLineRef } from './sale-lines';
