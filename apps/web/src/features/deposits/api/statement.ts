import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { contract, envelopeOf, priced } from '../../../lib/api-contract';
import { useSelectedCurrency } from '../../currency';

/** GET /api/balance/statement: every movement of the balance, a page at a time, in the display currency too. */
export function useStatement(page: number) {
  const currency = useSelectedCurrency();
  return useQuery({
    // Under ['balance'], so whatever moves the balance (a purchase, a deposit) refreshes the statement too.
    queryKey: ['balance', 'statement', currency.code, page] as const,
    queryFn: ({ signal }) => envelopeOf(contract.GET('/api/balance/statement', { signal, params: { query: { page } }, headers: priced(currency.code) })),
    enabled: currency.ready,
    placeholderData: keepPreviousData,
  });
}

/** The CSV download's address (a plain link: the browser sends the session cookie). */
export const statementCsvUrl = (currency: string | null) => `/api/balance/statement.csv${currency ? `?currency=${encodeURIComponent(currency)}` : ''}`;
