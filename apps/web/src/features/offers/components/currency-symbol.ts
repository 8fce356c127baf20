import { useSelectedCurrency } from '../../currency';

/** The symbol of a currency code from the site's list, else the code itself (€ for the base currency). */
export function useCurrencySymbol() {
  const list = useSelectedCurrency().list;
  return (code: string) => list.find((c) => c.code === code)?.symbol ?? (code === 'EUR' ? '€' : code);
}
