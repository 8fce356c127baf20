/** The display currency's public face: other features and the pages import only this file. */
export { type Money, type MoneyIn, moneyCurrency, useMoney } from './money';
export { type SelectedCurrency, saveCurrency, useSelectedCurrency } from './selected-currency';
