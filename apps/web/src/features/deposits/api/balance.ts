import { useQuery } from '@tanstack/react-query';
import { contract, payloadOf, priced } from '../../../lib/api-contract';
import { useSelectedCurrency } from '../../currency';
import { useSettings } from '../../site';

export const balanceKey = (currency: string | null) => ['balance', currency] as const;

/** GET /api/balance in the display currency; purchases and deposits invalidate ['balance']. */
export function useBalance(enabled = true) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: balanceKey(currency.code),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/balance', { signal, headers: priced(currency.code) })),
    enabled: enabled && currency.ready,
  });
}

/** The internal currency's name (setting internal_currency_name), which labels every balance. */
export function useInternalCurrencyName(): string {
  return useSettings().data?.internal_currency_name || 'Credits';
}
