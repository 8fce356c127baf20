import { Navigate, Outlet, useLocation } from 'react-router';
import { FullScreenSpinner } from '../components/ui/spinner';
import { useAuth } from '../features/auth/api/auth-state';

/** Protected pages send a guest to login with the original path in ?redirect= (SPEC §2). */
export function RequireAuth() {
  const auth = useAuth();
  const location = useLocation();
  if (auth.isPending) return <FullScreenSpinner />;
  if (!auth.data?.authenticated) {
    const redirect = location.pathname + location.search + location.hash;
    return <Navigate to={`/login?redirect=${encodeURIComponent(redirect)}`} replace />;
  }
  return <Outlet />;
}

/** Guest-only pages send a signed-in user to the dashboard. */
export function GuestOnly() {
  const auth = useAuth();
  if (auth.isPending) return <FullScreenSpinner />;
  if (auth.data?.authenticated) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
