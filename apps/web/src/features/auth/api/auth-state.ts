import type { UserProfile } from '@atelier/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { contract, envelopeOf, payloadOf, quiet } from '../../../lib/api-contract';

/** `profileFailed`: the session is fine but the profile could not be loaded (SPEC §4 shows a toast). */
export type AuthState = { authenticated: boolean; user: UserProfile | null; profileFailed?: boolean };
export const authKey = ['auth'] as const;

/** SPEC §4: check the session first; load the profile only when authenticated. */
export async function fetchAuthState(): Promise<AuthState> {
  const check = await envelopeOf(contract.GET('/api/is-auth', quiet));
  if (!check.payload.authenticated) return { authenticated: false, user: null };
  try {
    const user = await payloadOf(contract.GET('/api/user/profile', quiet));
    return { authenticated: true, user };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { authenticated: false, user: null };
    // SPEC §4: on any other failure the profile is cleared and an error toast is shown.
    return { authenticated: false, user: null, profileFailed: true };
  }
}

export const authQuery = { queryKey: authKey, queryFn: fetchAuthState, staleTime: 60_000, retry: 1 };

export function useAuth() {
  return useQuery(authQuery);
}

/**
 * Set while the visitor is logging out: a protected page that is still on screen for a moment (the
 * router moves home in a transition) sends them home, not to login with a redirect back (SPEC §4).
 */
let leaving = false;
export function markLoggingOut(on: boolean) {
  leaving = on;
}
export function isLoggingOut(): boolean {
  return leaving;
}

/**
 * Set when staff blocked the signed-in account (issue 18 bug 3): a protected page still on screen
 * sends the visitor to the blocked screen, not to login. Cleared by the next sign-in.
 */
let blocked = false;
export function markAccountBlocked(on: boolean) {
  blocked = on;
}
export function isAccountBlocked(): boolean {
  return blocked;
}

const WELCOME_KEY = 'atelier:new-account';

/** Remembers, for this tab, that an account was just made: its first screen greets it once. */
export function markNewAccount() {
  try {
    sessionStorage.setItem(WELCOME_KEY, '1');
  } catch {
    /* storage off: no greeting panel, the toast still greets */
  }
}

/** True on the first screen after registering (once; a reload or the next visit does not greet again). */
export function useNewAccountWelcome(): boolean {
  const [welcome] = useState(() => {
    try {
      return sessionStorage.getItem(WELCOME_KEY) === '1';
    } catch {
      return false;
    }
  });
  useEffect(() => {
    try {
      sessionStorage.removeItem(WELCOME_KEY);
    } catch {
      /* nothing to forget */
    }
  }, []);
  return welcome;
}
