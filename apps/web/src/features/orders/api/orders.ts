import type { GenerateImageInput, LicenceTier, ProductType } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiResponse } from '../../../lib/api-client';
import { contract, payloadOf, priced, quiet } from '../../../lib/api-contract';
import { failureMessage } from '../../../lib/form-errors';
import { i18n } from '../../../lib/i18n';
import { useSelectedCurrency } from '../../currency';
import { saveAnswer } from './download';
import { orderKeys } from './ownership';

/** GET /api/purchase/history in the display currency, newest first. */
export function useOrders() {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: orderKeys.history(currency.code),
    queryFn: async ({ signal }) => {
      try {
        return await payloadOf(contract.GET('/api/purchase/history', { signal, headers: priced(currency.code) }));
      } catch (err) {
        // SPEC §8: the history's own words; the page shows them, or 'Failed to load orders'.
        if (err instanceof ApiError)
          throw new ApiError(failureMessage(err, i18n.t('orders.fetch_failed'), i18n.t('orders.fetch_error')), err.status, err.errors);
        throw err;
      }
    },
    enabled: currency.ready,
  });
}

/** The SPEC §8 fallback message of each kind of product's purchase call (SPEC §7). */
export const purchaseCalls: Record<ProductType, { failed: string }> = {
  image: { failed: 'buy.product_failed' },
  doc: { failed: 'buy.product_failed' },
  prompt: { failed: 'buy.prompt_failed' },
  pack: { failed: 'buy.pack_failed' },
};

/** Buys in the currency the buyer sees: the order keeps it as the currency it was paid in (issue 18 bug 7). */
export function useBuyProduct() {
  const queryClient = useQueryClient();
  const currency = useSelectedCurrency();
  return useMutation({
    mutationFn: ({
      productId,
      productType,
      idempotencyKey,
      discountCode,
      licenceTier,
    }: {
      productId: number;
      productType: ProductType;
      idempotencyKey: string;
      /** Issue 34: a code applied in the dialog. */
      discountCode?: string;
      /** Issue 34: the licence picked in the dialog (commercial when absent). */
      licenceTier?: LicenceTier;
    }) => {
      const extras = { ...(discountCode ? { discount_code: discountCode } : {}), ...(licenceTier ? { licence_tier: licenceTier } : {}) };
      const headers = { ...priced(currency.code), 'Idempotency-Key': idempotencyKey };
      if (productType === 'prompt') return payloadOf(contract.POST('/api/purchase/prompt', { body: { prompt_id: productId, ...extras }, headers }));
      if (productType === 'pack') return payloadOf(contract.POST('/api/purchase/pack', { body: { pack_id: productId, ...extras }, headers }));
      return payloadOf(contract.POST('/api/purchase/buy', { body: { item_id: productId, ...extras }, headers }));
    },
    onSuccess: () => {
      // The reviews too: a buyer may review what they just bought (issue 20).
      for (const key of [['balance'], ['orders'], ['owned'], ['cart'], ['reviews']]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/**
 * A purchase call that may have reached the server though its answer never came back (issue 31): no
 * answer at all, or a gateway's in front of the app. The app's own 500 rolled its transaction back.
 */
export const answerLost = (err: unknown) => err instanceof ApiError && [0, 502, 503, 504].includes(err.status);

/**
 * POST /api/purchase/lookup (issue 31): what became of a purchase sent with this Idempotency-Key. The
 * server closes the key, so "not charged" stays true; the caller uses a new key for another try.
 */
export function useLookUpPurchase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (idempotencyKey: string) => payloadOf(contract.POST('/api/purchase/lookup', { body: { idempotency_key: idempotencyKey }, ...quiet })),
    onSuccess: (answer) => {
      if (answer.outcome !== 'bought') return;
      for (const key of [['balance'], ['orders'], ['owned'], ['cart'], ['reviews']]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/**
 * POST /api/purchase/generate-image: a zip (image, prompt text, licence) saved under the header's
 * file name (SPEC §7); any other answer is read as the error message.
 */
export function useGenerateImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: GenerateImageInput) => {
      // The answer is a zip, not JSON: the raw response is saved as a file.
      const res = await apiResponse('/api/purchase/generate-image', { method: 'POST', body: input });
      if (!(res.headers.get('content-type') ?? '').includes('zip')) {
        const data = await res.json().catch(() => null);
        throw new ApiError(data?.message ?? '', res.status);
      }
      return saveAnswer(res, 'generated-image.zip');
    },
    onSettled: () => {
      // Whatever the answer, the image is in the buyer's list (issue 29).
      void queryClient.invalidateQueries({ queryKey: ['generations'] });
      return queryClient.invalidateQueries({ queryKey: ['balance'] });
    },
  });
}
