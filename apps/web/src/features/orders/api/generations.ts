import { useQuery } from '@tanstack/react-query';
import { contract, payloadOf } from '../../../lib/api-contract';

/** The cache key of the buyer's generated images: a generation, and its bell, make it stale. */
export const generationKeys = { all: ['generations'] as const };

/** GET /api/user/generations: the buyer's generated images, newest first (issue 29). */
export function useGenerations() {
  return useQuery({
    queryKey: generationKeys.all,
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/user/generations', { signal })),
    // One still being made settles within minutes: look again while one is.
    refetchInterval: (query) => (query.state.data?.some((g) => g.status === 'processing') ? 15_000 : false),
  });
}
