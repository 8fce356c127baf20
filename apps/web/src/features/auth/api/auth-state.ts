import type { IsAuthAnswer, UserProfile } from '@atelier/shared';
import { useQuery } from '@tanstack/react-query';
import { ApiError, api, apiEnvelope } from '../../../lib/api-client';

export type AuthState = { authenticated: boolean; user: UserProfile | null };
export const authKey = ['auth'] as const;

/** SPEC §4: check the session first; load the profile only when authenticated. */
export async function fetchAuthState(): Promise<AuthState> {
  const check = await apiEnvelope<IsAuthAnswer>('/api/is-auth', { quiet: true });
  if (!check.authenticated) return { authenticated: false, user: null };
  try {
    const user = await api<UserProfile>('/api/user/profile', { quiet: true });
    return { authenticated: true, user };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { authenticated: false, user: null };
    throw err;
  }
}

export function useAuth() {
  return useQuery({ queryKey: authKey, queryFn: fetchAuthState, staleTime: 60_000, retry: 1 });
}
