import type { BuyerTax, OssReport, TaxCountryAnswer, TaxCountryInput, VatRate, VatRateInput } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { authKey } from '../../auth';

export const taxKeys = {
  all: ['tax'] as const,
  buyer: ['tax', 'buyer'] as const,
  rates: ['tax', 'rates'] as const,
  oss: (quarter: string) => ['tax', 'oss', quarter] as const,
};

/** The VAT the signed-in buyer's next purchase carries (GET /api/user/tax). */
export const useBuyerTax = (enabled = true) =>
  useQuery({ queryKey: taxKeys.buyer, queryFn: ({ signal }) => api<BuyerTax>('/api/user/tax', { signal }), enabled, staleTime: 60_000 });

/** PUT /api/user/tax-country: the buyer's country for VAT and, for a business, its VAT number. */
export const useSetTaxCountry = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TaxCountryInput) => api<TaxCountryAnswer>('/api/user/tax-country', { method: 'PUT', body: input }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: taxKeys.all });
      void queryClient.invalidateQueries({ queryKey: authKey });
    },
  });
};

/** Staff: the VAT rates table. */
export const useVatRates = () => useQuery({ queryKey: taxKeys.rates, queryFn: ({ signal }) => api<VatRate[]>('/api/admin/tax/rates', { signal }) });

export const useSaveVatRate = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: VatRateInput & { id?: number }) =>
      api<VatRate>(id ? `/api/admin/tax/rates/${id}` : '/api/admin/tax/rates', { method: id ? 'PUT' : 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taxKeys.all }),
  });
};

/** Staff: the One-Stop Shop report of a quarter. */
export const useOssReport = (quarter: string) =>
  useQuery({ queryKey: taxKeys.oss(quarter), queryFn: ({ signal }) => api<OssReport>('/api/admin/tax/oss', { signal, query: { quarter } }) });
