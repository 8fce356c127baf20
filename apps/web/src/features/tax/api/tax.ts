import type { TaxCountryInput, VatRateInput } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, payloadOf } from '../../../lib/api-contract';
import { authKey } from '../../auth';

export const taxKeys = {
  all: ['tax'] as const,
  buyer: ['tax', 'buyer'] as const,
  rates: ['tax', 'rates'] as const,
  oss: (quarter: string) => ['tax', 'oss', quarter] as const,
};

/** The VAT the signed-in buyer's next purchase carries (GET /api/user/tax). */
export const useBuyerTax = (enabled = true) =>
  useQuery({ queryKey: taxKeys.buyer, queryFn: ({ signal }) => payloadOf(contract.GET('/api/user/tax', { signal })), enabled, staleTime: 60_000 });

/** PUT /api/user/tax-country: the buyer's country for VAT and, for a business, its VAT number. */
export const useSetTaxCountry = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TaxCountryInput) => payloadOf(contract.PUT('/api/user/tax-country', { body: input })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: taxKeys.all });
      void queryClient.invalidateQueries({ queryKey: authKey });
    },
  });
};

/** Staff: the VAT rates table. */
export const useVatRates = () => useQuery({ queryKey: taxKeys.rates, queryFn: ({ signal }) => payloadOf(contract.GET('/api/admin/tax/rates', { signal })) });

export const useSaveVatRate = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: VatRateInput & { id?: number }) =>
      payloadOf(id ? contract.PUT('/api/admin/tax/rates/{id}', { params: { path: { id } }, body }) : contract.POST('/api/admin/tax/rates', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taxKeys.all }),
  });
};

/** Staff: the One-Stop Shop report of a quarter. */
export const useOssReport = (quarter: string) =>
  useQuery({
    queryKey: taxKeys.oss(quarter),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/admin/tax/oss', { signal, params: { query: { quarter } } })),
  });
