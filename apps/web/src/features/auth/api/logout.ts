import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { contract } from '../../../lib/api-contract';
import { authKey, markLoggingOut } from './auth-state';

/** How long after a logout a protected page still on screen sends the visitor home rather than to login. */
export const LOGOUT_MARK_MS = 2000;

/** SPEC §4: logout clears client state immediately, calls the server, and goes home. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      // Leave the protected page first, so its guard does not send the user to login; until the
      // next sign-in, a protected page still rendering sends a guest home as well.
      markLoggingOut(true);
      // Only for the moment of leaving: a guest who opens a protected page later goes to login.
      setTimeout(() => markLoggingOut(false), LOGOUT_MARK_MS);
      await navigate('/');
      queryClient.setQueryData(authKey, { authenticated: false, user: null });
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'site' && q.queryKey[0] !== 'auth' });
      await contract.POST('/api/logout').catch(() => undefined);
    },
  });
}
