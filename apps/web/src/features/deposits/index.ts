/** The deposits feature's public face: other features and the pages import only this file. */

export { useBalance, useInternalCurrencyName } from './api/balance';
export { useDepositStatus } from './api/deposits';
export { AddFundsForm } from './components/add-funds-form';
export { BalanceCard } from './components/balance-card';
export { DepositHistory } from './components/deposit-history';
export { HeaderBalance } from './components/header-balance';
export { PaymentFailed, PaymentSuccess } from './components/payment-result';
export { PaymentWidget, type WidgetCompletion, widgetOutcome } from './components/payment-widget';
export { ProcessingPayment } from './components/processing-payment';
export { Statement } from './components/statement';
export { addFundsUrl, rememberReturn } from './return-to';
