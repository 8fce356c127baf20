import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { FullScreenSpinner } from '../components/ui/spinner';
import { isAccountBlocked, isLoggingOut, safeRedirect, useAuth, useSigningIn } from '../features/auth';

/** Protected pages send a guest to login with the original path in ?redirect= (SPEC §2). */
export function RequireAuth() {
  const auth = useAuth();
  const location = useLocation();
  if (auth.isPending) return <FullScreenSpinner />;
  if (!auth.data?.authenticated) {
    // Logging out goes home (SPEC §4), whichever protected page the button was on.
    if (isLoggingOut()) return <Navigate to="/" replace />;
    if (isAccountBlocked()) return <Navigate to="/account-blocked" replace />;
    const redirect = location.pathname + location.search + location.hash;
    return <Navigate to={`/login?redirect=${encodeURIComponent(redirect)}`} replace />;
  }
  return <Outlet />;
}

/**
 * Guest-only pages send a signed-in user on: to the `?redirect=` target when it is a path on this
 * site, else the dashboard. Not while the user is signing in on this very page: the sign-in goes on
 * to its own target, which this guard would otherwise cut short.
 */
export function GuestOnly() {
  const auth = useAuth();
  const signingIn = useSigningIn();
  const [params] = useSearchParams();
  if (auth.isPending) return <FullScreenSpinner />;
  if (auth.data?.authenticated && !signingIn) return <Navigate to={safeRedirect(params.get('redirect')) ?? '/dashboard'} replace />;
  return <Outlet />;
}
