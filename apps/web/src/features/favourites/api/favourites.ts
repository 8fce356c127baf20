import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, envelopeOf, payloadOf, priced } from '../../../lib/api-contract';
import { useAuth } from '../../auth';
import { useSelectedCurrency } from '../../currency';

export const favouriteKeys = {
  ids: ['favourite-ids'] as const,
  list: (page: number, currency: string | null) => ['favourites', page, currency] as const,
};

/** The signed-in user's favourite product ids (the hearts); an empty list for a guest, without a call. */
export function useFavouriteIds() {
  const auth = useAuth();
  const signedIn = Boolean(auth.data?.authenticated);
  const query = useQuery({
    queryKey: favouriteKeys.ids,
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/favourites/ids', { signal })),
    enabled: signedIn,
    staleTime: 60_000,
  });
  return { signedIn, ids: signedIn ? (query.data ?? []) : [] };
}

/** POST or DELETE /api/favourites/{id}; the hearts change at once and roll back on a failure. */
export function useToggleFavourite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ productId, favourite }: { productId: number; favourite: boolean }) =>
      payloadOf((favourite ? contract.POST : contract.DELETE)('/api/favourites/{productId}', { params: { path: { productId } } })),
    onMutate: async ({ productId, favourite }) => {
      await queryClient.cancelQueries({ queryKey: favouriteKeys.ids });
      const before = queryClient.getQueryData<number[]>(favouriteKeys.ids);
      const rest = (before ?? []).filter((id) => id !== productId);
      queryClient.setQueryData<number[]>(favouriteKeys.ids, favourite ? [productId, ...rest] : rest);
      return { before };
    },
    onError: (_err, _vars, context) => queryClient.setQueryData(favouriteKeys.ids, context?.before),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: favouriteKeys.ids });
      void queryClient.invalidateQueries({ queryKey: ['favourites'] });
    },
  });
}

/** GET /api/favourites: the Favourites tab, in the catalogue's shape and the display currency. */
export function useFavourites(page: number) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: favouriteKeys.list(page, currency.code),
    queryFn: ({ signal }) => envelopeOf(contract.GET('/api/favourites', { signal, params: { query: { page, limit: 24 } }, headers: priced(currency.code) })),
    enabled: currency.ready,
  });
}
