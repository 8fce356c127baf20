import { useAuth } from '../features/auth';
import { useOffers } from '../features/offers';
import { usePublicProfile } from '../features/profile';

/**
 * Issue 31: whether the signed-in user is a creator, someone who has offered a work or has works in
 * the shop; undefined until both are known. The dashboard shows its creator tabs to creators only.
 */
export function useIsCreator(): boolean | undefined {
  const nickname = useAuth().data?.user?.nickname ?? '';
  const offers = useOffers();
  const profile = usePublicProfile(nickname);
  if ((offers.data?.length ?? 0) > 0 || (profile.data?.products_count ?? 0) > 0) return true;
  if ((offers.data || offers.isError) && (profile.data || profile.isError)) return false;
  return undefined;
}
